// The application version shown in About and written into new projects.
export const APP_VERSION = '0.1.0'

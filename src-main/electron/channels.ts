// IPC channel names shared by the main process and the preload.
export const IPC_REQUEST = 'eddy:request'
export const IPC_EVENT = 'eddy:event'

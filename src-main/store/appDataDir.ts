// Where Eddy keeps per-user state (recent projects, preferences) and where new projects
// go by default. Environment overrides let tests and portable installs redirect both.
import os from 'node:os'
import nodePath from 'node:path'

/** Per-user app data folder, following each platform's convention. */
export function appDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.EDDY_DATA_DIR) return env.EDDY_DATA_DIR
  const home = os.homedir()
  switch (platform) {
    case 'darwin':
      return nodePath.join(home, 'Library', 'Application Support', 'Eddy')
    case 'win32':
      return nodePath.join(env.APPDATA || nodePath.join(home, 'AppData', 'Roaming'), 'Eddy')
    default:
      // XDG base directory spec: an unset or relative XDG_CONFIG_HOME must be ignored.
      return nodePath.join(env.XDG_CONFIG_HOME && nodePath.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : nodePath.join(home, '.config'), 'eddy')
  }
}

/** Default folder offered for new projects. */
export function defaultProjectsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.EDDY_PROJECTS_DIR || nodePath.join(os.homedir(), 'Eddy Projects')
}

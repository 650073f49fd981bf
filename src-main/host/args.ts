// Command-line options of the headless host; unknown or malformed options are errors.
export interface HostArgs {
  port?: number
  dataDir?: string
  projectsDir?: string
  rendererDir?: string
  open?: string
  /** Test harnesses: the WebSocket also takes the session secret as ?token= (see server.ts). */
  allowTokenQuery?: boolean
}

export function parseHostArgs(argv: string[]): HostArgs {
  const out: HostArgs = {}
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = argv[i + 1]
    const need = (): string => {
      if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`)
      i++
      return value
    }
    switch (flag) {
      case '--port': {
        const n = Number(need())
        if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--port must be an integer 0..65535 (got ${value})`)
        out.port = n
        break
      }
      case '--data-dir':
        out.dataDir = need()
        break
      case '--projects-dir':
        out.projectsDir = need()
        break
      case '--renderer-dir':
        out.rendererDir = need()
        break
      case '--open':
        out.open = need()
        break
      case '--allow-token-query':
        out.allowTokenQuery = true
        break
      default:
        throw new Error(`Unknown option ${flag}`)
    }
  }
  return out
}

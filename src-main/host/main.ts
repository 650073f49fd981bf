// Entry point of the headless host: `node out/main/host.js [--port N] [--data-dir D]
// [--projects-dir P] [--open FILE] [--allow-token-query]`. Prints one machine-readable line
// `EDDY_HOST_READY {json}` for scripts and tests, then a sentence for people.
// The solver families register their parameters with the spec table before anything reads it.
import '../../src-shared/sim/registry'
import { fileURLToPath } from 'node:url'
import { EddyService } from '../app/service'
import { appDataDir, defaultProjectsDir } from '../store/appDataDir'
import { startHost } from './server'
import { parseHostArgs } from './args'
import { APP_VERSION } from '../app/version'
import { makeShutdown } from '../app/shutdown'

async function main(): Promise<void> {
  const args = parseHostArgs(process.argv.slice(2))
  const service = new EddyService({
    mode: 'headless',
    version: APP_VERSION,
    dataDir: args.dataDir ?? appDataDir(),
    projectsDir: args.projectsDir ?? defaultProjectsDir(),
    bakeWorker: new URL('./bakeWorker.js', import.meta.url),
  })
  if (args.open) {
    const r = await service.request({ id: 0, type: 'project.open', params: { path: args.open } })
    if (!r.ok) console.error(`Could not open ${args.open}: ${r.error.message}`)
  }
  const rendererDir = args.rendererDir ?? fileURLToPath(new URL('../renderer/', import.meta.url))
  const dataDir = args.dataDir ?? appDataDir()
  const host = await startHost({ service, rendererDir, port: args.port, allowTokenQuery: args.allowTokenQuery })
  // The one-time launch address goes to the parent through this pipe only (never argv or
  // the environment); dataDir tells the launcher where to keep its browser profile.
  console.log(`EDDY_HOST_READY ${JSON.stringify({ url: host.url, launchUrl: host.launchUrl, port: host.port, pid: process.pid, dataDir })}`)
  console.log(`Eddy host listening on 127.0.0.1:${host.port}`)
  // Graceful stop within SHUTDOWN_DEADLINE_MS; past it (a disk that never answers, a thread
  // stuck in a system call) the host kills itself, so SIGTERM always ends it within 2 s.
  const stop = makeShutdown({
    graceful: async () => {
      await service.close().catch((e: unknown) => console.error('Stopping bakes failed:', e))
      await host.close()
    },
  })
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

main().catch((e: unknown) => {
  console.error(`Eddy host failed to start: ${e instanceof Error ? e.message : String(e)}`)
  process.exit(1)
})

import { it } from 'vitest'
import { compileInput, compileScene } from '../../../src-shared/sim/compile'
import { blenderSmokeScene } from '../../../src-shared/sim/smoke/benchScene'
import { SmokeSolver } from '../../../src-shared/sim/smoke/smokeSolver'

it('scratch', () => {
  for (const res of [48]) {
    const doc = blenderSmokeScene(res)
    const setup = compileScene(doc, 'domain')
    const solver = new SmokeSolver(setup)
    const t0 = performance.now()
    const N = 10
    for (let f = 0; f < N; f++) {
      const input = compileInput(doc, 'domain', f / 24, 24, { meshes: setup.meshes })
      const s = solver.step(input.frameDt, input)
      if (f % 4 === 3) {
        const fr = solver.frame()
        const d = fr.volumes[0].data
        let sum = 0, cy = 0
        const { nx, ny } = setup.grid
        for (let c = 0; c < d.length; c++) { sum += d[c]; cy += d[c] * (Math.floor(c / nx) % ny) }
        console.log(f, JSON.stringify(s), 'mass', sum.toFixed(2), 'cy', (cy / sum).toFixed(2))
      }
    }
    console.log(res, 'ms/frame', ((performance.now() - t0) / N).toFixed(1))
  }
})

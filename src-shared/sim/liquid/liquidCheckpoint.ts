// Checkpoint of the liquid solver: everything a restored bake needs to continue bit for bit.
// The grid velocity is rebuilt from the markers every substep, so the state is the markers
// (position, velocity, temperature, id), the PRNG, the clocks, the pressure solve's warm start
// (PCG from a different guess ends in different low bits), the tracked free surface the
// pressure reads (surfaceTracker.ts: it is advected, so it cannot be rebuilt from the
// markers) and the fields frame() reports. The density drift's potential too: its solve is
// warm-started from the last one (ghostFluid.ts solveDrift).
// Container format: core/checkpoint.ts (JSON header + 8-byte aligned raw arrays).
import { EddyError } from '../../api/errors'
import { readCheckpoint, writeCheckpoint } from '../core/checkpoint'
import type { MarkerParticles } from './markers'

export const LIQUID_CHECKPOINT_KIND = 'liquid'

export interface LiquidScalars {
  time: number
  animFrame: number
  prngState: number
  initialised: boolean
  /** The tracked free surface (surfaceTracker.ts) has been initialised. */
  surfaceReady: boolean
  /** Solves the viscosity's 'auto' still sends past its stalled cycle (viscosity.ts cycleRest). */
  viscousCycleRest: number
}

export interface LiquidGridState {
  temperature: Float32Array
  phi: Float32Array
  phiRaw: Float32Array
  pressure: Float64Array
  /** The density drift's last potential (ghostFluid.ts qDrift), its solve's warm start. */
  pressureDrift: Float64Array
  /** The tracked free surface of surfaceTracker.ts (advected, so state). */
  surface: Float32Array
  /** Rigid bodies' state (rigidFluid.ts serialise), when the scene has them; read in place. */
  rigid?: Float64Array
}

export function writeLiquidCheckpoint(dims: [number, number, number], scalars: LiquidScalars, p: MarkerParticles, grid: LiquidGridState): Uint8Array {
  const n = p.count
  return writeCheckpoint(
    LIQUID_CHECKPOINT_KIND,
    { dims, count: n, nextId: p.nextId, ...scalars },
    [
      ['px', p.px.subarray(0, n)],
      ['py', p.py.subarray(0, n)],
      ['pz', p.pz.subarray(0, n)],
      ['vx', p.vx.subarray(0, n)],
      ['vy', p.vy.subarray(0, n)],
      ['vz', p.vz.subarray(0, n)],
      ['temp', p.temp.subarray(0, n)],
      ['id', new Uint8Array(p.id.buffer, p.id.byteOffset, 4 * n)],
      ['temperature', grid.temperature],
      ['phi', grid.phi],
      ['phiRaw', grid.phiRaw],
      ['pressure', grid.pressure],
      ['pressureDrift', grid.pressureDrift],
      ['surface', grid.surface],
      ...(grid.rigid ? [['rigid', grid.rigid] as [string, Float64Array]] : []),
      // APIC's affine velocities C_p (markers.ts), 9 per marker: only when the markers carry them.
      ...(p.affine ? [['c', p.c.subarray(0, 9 * n)] as [string, Float32Array]] : []),
    ],
  )
}

function bad(message: string): never {
  throw new EddyError('INVALID_PARAM', `Checkpoint is not usable: ${message}`, { field: 'checkpoint' })
}

/** Restores markers and grids in place (dimensions must match); returns the scalars. */
export function readLiquidCheckpoint(bytes: Uint8Array, dims: [number, number, number], p: MarkerParticles, grid: LiquidGridState): LiquidScalars {
  const ck = readCheckpoint(LIQUID_CHECKPOINT_KIND, bytes)
  const m = ck.meta
  const d = m.dims as unknown
  if (!Array.isArray(d) || d[0] !== dims[0] || d[1] !== dims[1] || d[2] !== dims[2]) bad(`grid ${String(d)} does not match this domain's ${dims.join('x')}`)
  const n = m.count
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) bad('particle count is missing')
  if (n > p.maxCount) bad(`it holds ${n} particles, more than the ${p.maxCount} allowed`)
  p.reserve(n)
  p.count = n
  ck.read('px', p.px.subarray(0, n))
  ck.read('py', p.py.subarray(0, n))
  ck.read('pz', p.pz.subarray(0, n))
  ck.read('vx', p.vx.subarray(0, n))
  ck.read('vy', p.vy.subarray(0, n))
  ck.read('vz', p.vz.subarray(0, n))
  ck.read('temp', p.temp.subarray(0, n))
  ck.read('id', new Uint8Array(p.id.buffer, p.id.byteOffset, 4 * n))
  ck.read('temperature', grid.temperature)
  ck.read('phi', grid.phi)
  ck.read('phiRaw', grid.phiRaw)
  ck.read('pressure', grid.pressure)
  // Checkpoints from before the drift's warm start have none: it starts from 0.
  if (ck.length('pressureDrift') === grid.pressureDrift.length) ck.read('pressureDrift', grid.pressureDrift)
  else grid.pressureDrift.fill(0)
  // Checkpoints from before the tracked surface have none: it restarts from the markers.
  const surfaceReady = m.surfaceReady === true && ck.length('surface') === grid.surface.length
  if (surfaceReady) ck.read('surface', grid.surface)
  if (grid.rigid) {
    if (ck.length('rigid') !== grid.rigid.length) bad(`its rigid body state holds ${ck.length('rigid')} values, this scene's bodies need ${grid.rigid.length}`)
    ck.read('rigid', grid.rigid)
  }
  // APIC's C_p: checkpoints written without it (FLIP transfer, or older) restore C = 0.
  if (p.affine) {
    if (ck.length('c') === 9 * n) ck.read('c', p.c.subarray(0, 9 * n))
    else p.c.fill(0, 0, 9 * n)
  }
  p.nextId = Number(m.nextId) >>> 0
  const scalar = (key: string) => {
    const v = m[key]
    if (typeof v !== 'number' || !Number.isFinite(v)) bad(`${key} is missing`)
    return v
  }
  // Checkpoints from before the viscosity's cycle rest have none: 0, the cycle is tried.
  const rest = m.viscousCycleRest ?? 0
  if (typeof rest !== 'number' || !Number.isInteger(rest) || rest < 0) bad('viscousCycleRest is not a count')
  return { time: scalar('time'), animFrame: scalar('animFrame'), prngState: scalar('prngState') >>> 0, initialised: m.initialised === true, surfaceReady, viscousCycleRest: rest }
}

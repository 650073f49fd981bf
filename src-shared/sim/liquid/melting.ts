// Viscosity from temperature (Carlson 2004 sec. 4.3): "if the temperature is substantially
// below or above the melting point of the material, we leave the viscosity at a constant
// value. Within a temperature transition zone, we vary the viscosity as either a linear or
// quadratic function of temperature." Solids are very viscous liquids (chapter 4 intro), so a
// block below its melting point keeps its shape and flows once heated.
//
// With s = (T - (Tm - w/2)) / w in [0, 1] across the zone of width w around the melting point:
//   linear:    nu = nu_solid + (nu_liquid - nu_solid) s
//   quadratic: nu = nu_liquid + (nu_solid - nu_liquid) (1 - s)^2
// The quadratic ramp leaves the solid end steeply and meets the melt with zero slope, so the
// last part of the melt is gradual (wax softens before it runs).
import type { ViscosityModel } from './liquidInput'
import * as kinds from './viscosity'

// Imported values used in per-cell / per-marker loops are copied into module constants: an
// imported binding can cost a property load (or a getter call, under vitest's module runner)
// on every use in a hot loop.
const LIQUID = kinds.LIQUID

/** Kinematic viscosity (m^2/s) of the material at temperature t (K). */
export function viscosityAt(model: ViscosityModel, t: number): number {
  if (model.model === 'constant') return model.value
  const { meltingPoint, transitionWidth, solid, liquid } = model
  const s = (t - (meltingPoint - 0.5 * transitionWidth)) / transitionWidth
  if (!(s > 0)) return solid // also for NaN: never soften by accident
  if (s >= 1) return liquid
  if (model.ramp === 'linear') return solid + (liquid - solid) * s
  const r = 1 - s
  return liquid + (solid - liquid) * r * r
}

/** Per-cell viscosity of liquid cells from the grid temperature (0 elsewhere); returns the largest. */
export function cellViscosity(model: ViscosityModel, temperature: Float32Array, kind: Uint8Array, out: Float32Array): number {
  let max = 0
  if (model.model === 'constant') {
    const v = model.value
    // (An inviscid liquid, the common case: one native fill instead of a pass over the labels.)
    if (Object.is(v, 0)) out.fill(0)
    else for (let c = 0; c < out.length; c++) out[c] = kind[c] === LIQUID ? v : 0
    return v
  }
  for (let c = 0; c < out.length; c++) {
    const v = kind[c] === LIQUID ? viscosityAt(model, temperature[c]) : 0
    out[c] = v
    if (v > max) max = v
  }
  return max
}

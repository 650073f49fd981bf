// What the two smoke families (the grid's and the hybrid mesh's) show alike: the density and
// temperature volumes raymarched with their vortex particles, and the viewport preview each
// frame stores (density and the glow of gas hotter than the ambient air).
import type { FrameData } from './frame'
import { encodePreview } from '../formats/framePreview'
import { volumeDisplay } from '../formats/volumePreview'
import { evaluateObject } from '../scene/keyframes'
import { findDomain } from './compile'
import type { FamilyDisplay, PreviewContext } from './family'

export const GAS_DISPLAY: FamilyDisplay = {
  controls: ['volumeDensity', 'volumeQuality', 'particleColor'],
  densityVolume: 'density',
  emissionVolume: 'temperature',
  particleColors: [{ attribute: 'vorticity', label: 'Colour by vortex strength' }],
}

export function gasPreview(frame: FrameData, { doc, hostId, frameStart }: PreviewContext): Uint8Array | null {
  const ambient = Number(evaluateObject(findDomain(doc, hostId), doc.tracks, frameStart).ambientTemperature ?? 293.15)
  const one = (name: string) => frame.volumes.find((v) => v.name === name && v.components === 1)
  const v = volumeDisplay(one('density'), one('temperature'), ambient)
  return v ? encodePreview(v) : null
}

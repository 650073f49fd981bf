// The example scenes Eddy ships, by id: `eddy example NAME OUT.eddy` and the app's "new from
// example" both read this list (src-main/store/exampleProject.ts builds the project file).
import { blockCatapultScene } from './blockCatapult'
import { damBreakScene } from './damBreak'
import { gearsAndBunniesScene } from './gearsAndBunnies'
import { corkscrewScene, deskToyScene, glassScene, rampJetScene } from './hybridGases'
import { leadAndWoodScene } from './leadAndWood'
import { meltingBunnyScene } from './meltingBunny'
import { tetDamBreakScene, tetSprayScene, tetWaveScene } from './tetLiquids'
import { paintedTorusScene, patternDoubleTorusScene } from './paintedTorus'
import { toothpasteScene } from './toothpaste'
import type { ExampleEntry } from './types'
import { viscosityPourScene } from './viscosityPour'
import { movingWakeScene, vortexPlumeScene } from './smokePlumes'

export type { ExampleEntry, ExampleMesh, ExampleOptions, ExampleScene } from './types'

export const EXAMPLES: readonly ExampleEntry[] = [
  {
    id: 'melting-bunny',
    title: 'Melting bunny',
    description: 'A wax Stanford bunny melts under a heat lamp, flows and hardens again on the floor (Carlson 2004, Fig. 11).',
    build: meltingBunnyScene,
  },
  {
    id: 'toothpaste',
    title: 'Toothpaste',
    description: 'A very thick jet squirts sideways into a wall and buckles against it (Carlson 2004, Fig. 15).',
    build: toothpasteScene,
  },
  {
    id: 'viscosity-pour',
    title: 'Viscosity pour',
    description: 'Liquid thrown into four pools with viscosities 0.1, 1, 10 and 100 m²/s, one domain each (Carlson 2004, Fig. 12).',
    build: viscosityPourScene,
  },
  {
    id: 'dam-break',
    title: 'Dam break',
    description: 'A water column collapses around a box obstacle: the Blender Mantaflow peer benchmark scene.',
    build: damBreakScene,
  },
  {
    id: 'lead-and-wood',
    title: 'Lead and wood',
    description: 'A lead ball and a wooden ball, spinning at 1000 rpm, are thrown at each other into a pool (Carlson 2004, Figs. 2 and 19).',
    build: leadAndWoodScene,
  },
  {
    id: 'gears-and-bunnies',
    title: 'Gears and bunnies',
    description: 'Eight metal gears are thrown into a pool where three wooden bunnies rise from under the water (Carlson 2004, Fig. 22).',
    build: gearsAndBunniesScene,
  },
  {
    id: 'block-catapult',
    title: 'Block catapult',
    description: 'A falling silver block catapults wooden blocks off a plank into an oncoming wall of water (Carlson 2004, Fig. 17).',
    build: blockCatapultScene,
  },
  {
    id: 'painted-torus',
    title: 'Painted torus',
    description: 'Red, yellow and blue paint pushed around a torus standing on its side, running down under gravity and mixing (Stam 2003, sec. 5).',
    build: paintedTorusScene,
  },
  {
    id: 'pattern-double-torus',
    title: 'Pattern on a double torus',
    description: 'Gray-Scott reaction-diffusion growing from random spots into a maze over a genus-2 surface (Stam 2003, Fig. 16).',
    build: patternDoubleTorusScene,
  },
  {
    id: 'vortex-plume',
    title: 'Vortex plume',
    description: 'A hot plume rising around a sphere and a bar, with vortex particles beside the same plume without them (Selle 2005).',
    build: vortexPlumeScene,
  },
  {
    id: 'moving-wake',
    title: 'Moving wake',
    description: 'A sphere dragged through a layer of smoke leaves a wake of rolling vortices (Selle 2005).',
    build: movingWakeScene,
  },
  {
    id: 'tet-wave',
    title: 'Wave over a hemisphere',
    description: 'A released block of water runs as a wave over a hemisphere in a long tank, on the tetrahedral liquid (Chentanez 2007, Fig. 3).',
    build: tetWaveScene,
  },
  {
    id: 'tet-spray',
    title: 'Spray with and without thickening',
    description: 'A jet thrown against a wall breaks into sheets and drops; thickening keeps them (left), without it they vanish (right) (Chentanez 2007, Fig. 4).',
    build: tetSprayScene,
  },
  {
    id: 'tet-dam-break',
    title: 'Dam break (tetrahedral)',
    description: 'The peer benchmark\'s dam break on the tetrahedral liquid: isosurface stuffing every step, semi-Lagrangian contouring (Chentanez 2007).',
    build: tetDamBreakScene,
  },
  {
    id: 'hybrid-ramp-jet',
    title: 'Jet onto a ramp (hybrid mesh)',
    description: 'A jet shoots down onto an inclined ramp and spreads up its slope; tetrahedra follow the ramp, regular cells fill the rest (Feldman 2005, Fig. 4).',
    build: rampJetScene,
  },
  {
    id: 'hybrid-glass',
    title: 'Smoke in a hollow glass',
    description: 'A jet at the centre of a closed glass bulb drives smoke into its two looping arms, where it speeds up and disperses as the flows collide (Feldman 2005, Fig. 5).',
    build: glassScene,
  },
  {
    id: 'hybrid-desk-toy',
    title: 'Desk toy',
    description: 'A closed hourglass vessel with dense gas at the top and light gas at the bottom, full of tracker particles, turning over and mixing (Feldman 2005, Fig. 6).',
    build: deskToyScene,
  },
  {
    id: 'hybrid-corkscrew',
    title: 'Corkscrew cylinder',
    description: 'A jet blows smoke up a tube holding a corkscrew; it follows the spiral and rolls out of the top into open air (Feldman 2005, Fig. 7).',
    build: corkscrewScene,
  },
]

export function findExample(id: string): ExampleEntry | undefined {
  return EXAMPLES.find((e) => e.id === id)
}

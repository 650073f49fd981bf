// A kernel row over the surface's patches (the rows of surface*Kernels.ts): its range is the
// patch count (the last argument, a size) and its work `weight` times the cells of those
// patches (the argument named N is the cells a patch edge). Each patch writes only its own
// cells and faces, so any split over threads gives the same bits.
import { type ArgSpec, type KernelRow, type KernelRowSpec, sizedRow } from '../core/kernelTable'

export function patchRow(name: string, args: readonly ArgSpec[], weight: number, ref: KernelRowSpec['ref']): KernelRow {
  const at = args.findIndex((a) => a.name === 'N')
  if (at < 0 || args[args.length - 1].kind !== 'size') throw new Error(`kernel ${name}: a patch row takes N and ends in the size patches`)
  return sizedRow(name, args, 'blocks', (a) => (a[at] as number) ** 2, weight, ref)
}

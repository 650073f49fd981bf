// A kernel row over the surface's patches (the rows of surface*Kernels.ts): its range is the
// patch count (the last argument, a size) and its work `weight` times the cells of those
// patches (the argument named N is the cells a patch edge). Each patch writes only its own
// cells and faces, so any split over threads gives the same bits.
import { type ArgSpec, defineKernel, type KernelRow, type KernelRowSpec } from '../core/kernelTable'

export function patchRow(name: string, args: readonly ArgSpec[], weight: number, ref: KernelRowSpec['ref']): KernelRow {
  const last = args.length - 1
  const at = args.findIndex((a) => a.name === 'N')
  if (at < 0 || args[last].kind !== 'size') throw new Error(`kernel ${name}: a patch row takes N and ends in the size patches`)
  return defineKernel({
    name,
    args,
    split: 'blocks',
    range: (a) => a[last] as number,
    work: (a) => weight * (a[at] as number) ** 2 * (a[last] as number),
    ref,
  })
}

// Runs a WebAssembly kernel over z-slabs on several threads that share one memory.
//
// Transport-agnostic: a SlabWorkerHost (src-main/sim/workerPool.ts for Node's worker_threads;
// a browser would use Web Workers) starts workers that run SLAB_WORKER_SOURCE. Each worker
// instantiates the same kernel module on the same shared WebAssembly.Memory and then waits on
// a control block in that memory. No message is posted per job:
//
//   main:   write the arguments (float64 slots, their count) and the job's parts (index ranges),
//           DONE = 0, NEXT = the job's tag, GEN += 1, WAKE += 1, Atomics.notify(WAKE); claim
//           and run parts until none is left; wait (spin, then Atomics.wait) until DONE = parts
//   worker: wait until GEN changes (asleep on WAKE: see "Committing ahead"); claim and run
//           parts until none is left, calling the kernel's export (...args, k0, k1, index);
//           DONE += 1 after each part and Atomics.notify(DONE) after the last
//
// Kernels are rows of the kernel table (core/kernelTable.ts), and [0, n) is whatever the row
// splits: z-planes, matrix rows (or a row list) or fixed vector blocks. It is cut into
// contiguous ranges, one per thread, and the kernel is told the range's number as its thread
// index (rows with per-thread scratch index it by that), so what any index computes is a pure
// function of (n, threads) whichever thread runs it; every kernel writes disjoint outputs
// (reductions write one partial per plane or block), so results do not depend on the thread
// count at all.
//
// A row may ask for several pieces per thread (KernelRowSpec.piecesPerThread, rows whose
// indices are independent, such as the markers' moves): the range is then cut into that many
// pieces per thread, and the kernel is told the index of the thread that runs the piece. Which
// thread runs a piece depends on timing, which such rows do not see; the threads finish
// together even when the pieces' costs differ.
//
// Claiming parts. Every thread, the dispatcher included, takes the next unclaimed part (a
// range or a piece) with a compare-and-swap on NEXT until none is left, and the dispatcher
// waits only for parts that were claimed, not for every worker to look in. On a machine with
// other work, a worker the operating system has not scheduled yet would otherwise hold up
// every job until its next time slice: beside one busy core, the smoke transport tests took
// 83 s on 2 threads instead of 26 alone (33 on 1 thread); they take 52 now. (Spinning 200-2,000
// times instead of 20,000 before a thread sleeps made that 40-42 s, but cost 12% of
// `bench smoke` at 64^3 alone, two runs each, so the spin stays.) A worker
// may wake so late that the job it was woken for is over and others followed, so NEXT
// carries the job's tag (the low bits of GEN) above the part number: a claim only succeeds
// on the job the worker looked at, and the claim is what keeps that job open (the
// dispatcher cannot post another until the part is done), so the worker reads the kernel,
// its arguments and the range only after it. (After 32,768 jobs the tags repeat: a worker
// asleep across exactly that many claims a part of the current job and runs it correctly,
// since it reads everything after the claim.)
//
// Committing ahead. The operating system backs a page of the memory the first time it is
// written, and on these machines that costs about 12 us a page (a 400 MB bake commits about
// 100,000 pages: 1.2 s, nearly all inside its first frame, on whichever thread first writes
// each array). Blocks the arena hands out for the first time are therefore committed by idle
// workers: the arena reports its new end (WasmArena.onFresh), the pool raises FAULT_END (in
// pages), and a worker waiting for a job takes FAULT_BATCH pages at a time from FAULT_NEXT and
// writes each with an atomic add of 0 (a locked read-modify-write: it commits the page and
// cannot undo a store another thread makes to the same bytes meanwhile). It looks for a job
// between batches, so a job waits at most one batch. A worker sleeps on WAKE, which the pool
// raises after a new job (GEN) and after new pages (FAULT_END) alike: it reads WAKE before it
// looks for either, so a raise it did not see makes its Atomics.wait return at once. (Asleep on
// GEN, a worker that had just found no pages missed a FAULT_END raised before it slept, and the
// pages waited for the next job: a test's 24 MB block was never committed on a loaded machine.)
// Only pages of blocks already handed out are touched: what the solver allocated and will write
// anyway, now while the dispatching thread builds the bodies' distance grids or seeds markers
// instead of in its first frame.
//
// Overlapped jobs. begin() starts a job in pieces mode and returns without taking a piece, so
// the workers compute it while the dispatching thread does work of its own that neither reads
// nor writes what the job writes, nor writes what it reads (the caller's promise); finish()
// then takes the untaken pieces and waits. The job's arguments go to a block of their own
// (ARGS points there until finish), because run() meanwhile runs every job on the calling
// thread alone through the usual argument slots, without touching the control block. The
// pieces' results do not depend on which thread took them, so the bits are those of run().
import { EddyError } from '../../api/errors'
import { MAX_KERNEL_ARGS, type WasmKernels, type WasmMemory, type WasmModule } from '../wasm/kernels'

/** Runs kernels over index ranges (planes, rows, list positions or blocks). */
export interface SlabRunner {
  /** Threads used, including the calling one. */
  readonly threads: number
  /**
   * Runs `kernel` (a dispatch number, WasmKernels.idOf) over [0, n) with arguments `args`, split
   * into at most `threads` contiguous ranges; `work` (cells touched, default n) below
   * minParallelWork runs on the calling thread only. `balance`, when given, is the cumulative
   * work over the range (balance[i] = work of indices [0, i), length n + 1): the ranges then
   * carry equal shares of it instead of equal lengths. `piecesPerThread` > 1: that many pieces
   * per thread (equal lengths or equal shares), taken by whichever thread is free (see the file
   * comment). Returns when every range is done.
   */
  run(kernel: number, args: ArrayLike<number>, argCount: number, n: number, work?: number, balance?: ArrayLike<number> | null, piecesPerThread?: number): void
  /**
   * Starts a job as run() would, in pieces, and returns at once: the other threads take its
   * pieces while the caller goes on; finish() takes the rest and returns when all are done
   * (see "Overlapped jobs"). One at a time. Where no other thread would share it, it runs here.
   */
  begin(kernel: number, args: ArrayLike<number>, argCount: number, n: number, work?: number, balance?: ArrayLike<number> | null, piecesPerThread?: number): void
  /** Ends the job begin() started (nothing when none is out). */
  finish(): void
  /** Stops the workers. */
  close(): Promise<void>
}

/** Everything a worker needs to start (structured-cloneable). */
export interface SlabWorkerInit {
  module: WasmModule
  memory: WasmMemory
  /** Byte offset of the control block in memory. */
  control: number
  /** Worker number, 1 .. threads-1 (0 is the dispatching thread). */
  index: number
  /** Spin iterations before a worker blocks in Atomics.wait. */
  spin: number
  /** Export name of each dispatch number (WasmKernels.names). */
  names: readonly string[]
}

export interface SlabWorkerHandle {
  terminate(): Promise<unknown> | void
}

/** Starts one worker running SLAB_WORKER_SOURCE's slabWorkerMain(init). */
export interface SlabWorkerHost {
  spawn(init: SlabWorkerInit): SlabWorkerHandle
}

// Control block (int32 slots). GEN and DONE sit on separate 64-byte lines.
export const CTRL_GEN = 0
export const CTRL_KERNEL = 1
export const CTRL_ARGS = 2
export const CTRL_READY = 4
export const CTRL_ERROR = 5
export const CTRL_ARGC = 6
/** Parts of the current job: its ranges at RANGES + 2 part (see "Claiming parts"). */
export const CTRL_PARTS = 7
/** 1: each part is one thread's range and its kernel gets the part number as its thread index. */
export const CTRL_BY_RANGE = 8
/** Parts finished. */
export const CTRL_DONE = 16
/** The job's tag (TAG_SHIFT up) and its next unclaimed part (below). */
export const CTRL_NEXT = 24
/** The low 15 bits of GEN, the job's tag in NEXT. */
export const TAG_MASK = 0x7fff
export const TAG_SHIFT = 16
export const PART_MASK = 0xffff
export const CTRL_RANGES = 32
/** Kernel value that tells workers to exit. */
export const CTRL_STOP = -1

/** Largest thread count a pool accepts. */
export const MAX_THREADS = 256

/** Committing ahead (pages of 4096 bytes): the next page to write, the first page not to. */
export const CTRL_FAULT_NEXT = CTRL_RANGES + 2 * MAX_THREADS
export const CTRL_FAULT_END = CTRL_FAULT_NEXT + 1
/** Raised after every new job and every new FAULT_END: what a waiting worker sleeps on. */
export const CTRL_WAKE = CTRL_FAULT_NEXT + 2
/** Control block size, int32 slots. */
const CTRL_INTS = CTRL_FAULT_NEXT + 16
/** Bytes per page the workers commit. */
export const FAULT_PAGE = 4096
/** Pages a worker commits between looks for a job (about 0.1 ms when each one faults). */
export const FAULT_BATCH = 8

/**
 * The worker's code as plain JavaScript (no imports, no TypeScript), so any worker flavour
 * can run it without a bundler or transpiler: `(${SLAB_WORKER_SOURCE})(init)`.
 */
export const SLAB_WORKER_SOURCE = `function slabWorkerMain(init) {
  const GEN = ${CTRL_GEN}, KERNEL = ${CTRL_KERNEL}, ARGS = ${CTRL_ARGS}
  const READY = ${CTRL_READY}, ERROR = ${CTRL_ERROR}, ARGC = ${CTRL_ARGC}, DONE = ${CTRL_DONE}, RANGES = ${CTRL_RANGES}
  const PARTS = ${CTRL_PARTS}, BY_RANGE = ${CTRL_BY_RANGE}, NEXT = ${CTRL_NEXT}
  const FAULT_NEXT = ${CTRL_FAULT_NEXT}, FAULT_END = ${CTRL_FAULT_END}, WAKE = ${CTRL_WAKE}, FAULT_BATCH = ${FAULT_BATCH}, PAGE_INTS = ${FAULT_PAGE / 4}
  const { module, memory, control, index, spin, names } = init
  const ctrl = new Int32Array(memory.buffer, control, ${CTRL_INTS})
  let pages = new Int32Array(memory.buffer)
  // Commits the next batch of pages the arena handed out (see "Committing ahead"); false when
  // none is left.
  const commitAhead = () => {
    const next = Atomics.load(ctrl, FAULT_NEXT)
    const end = Atomics.load(ctrl, FAULT_END)
    if (next >= end) return false
    const stop = Math.min(end, next + FAULT_BATCH)
    if (Atomics.compareExchange(ctrl, FAULT_NEXT, next, stop) !== next) return true
    if (pages.length < stop * PAGE_INTS) pages = new Int32Array(memory.buffer)
    for (let p = next; p < stop; p++) Atomics.add(pages, p * PAGE_INTS, 0)
    return true
  }
  let exp
  try {
    exp = new WebAssembly.Instance(module, { env: { memory } }).exports
  } catch (e) {
    exp = null
  }
  if (exp === null || !names.every((name, k) => k === 0 || typeof exp[name] === 'function')) {
    Atomics.store(ctrl, ERROR, -2)
    Atomics.add(ctrl, READY, 1)
    Atomics.notify(ctrl, READY)
    return
  }
  const entry = names.map((name) => exp[name])
  const argv = []
  let gen = Atomics.load(ctrl, GEN)
  Atomics.add(ctrl, READY, 1)
  Atomics.notify(ctrl, READY)
  for (;;) {
    let n = 0
    for (;;) {
      const wake = Atomics.load(ctrl, WAKE)
      if (Atomics.load(ctrl, GEN) !== gen) break
      if (commitAhead()) n = 0
      else if (++n > spin) Atomics.wait(ctrl, WAKE, wake)
    }
    gen = Atomics.load(ctrl, GEN)
    if (Atomics.load(ctrl, KERNEL) === ${CTRL_STOP}) break
    const tag = gen & ${TAG_MASK}
    // Claims the job's parts one by one (see "Claiming parts"). Only a claim pins the job, so
    // what the part needs is read after it.
    for (;;) {
      const next = Atomics.load(ctrl, NEXT)
      if (next >>> ${TAG_SHIFT} !== tag) break
      const part = next & ${PART_MASK}
      if (part >= Atomics.load(ctrl, PARTS)) break
      if (Atomics.compareExchange(ctrl, NEXT, next, next + 1) !== next) continue
      const parts = Atomics.load(ctrl, PARTS)
      if (part >= parts) break
      const kernel = ctrl[KERNEL]
      const r = RANGES + 2 * part
      const k0 = ctrl[r]
      const k1 = ctrl[r + 1]
      if (k0 < k1) {
        try {
          // Re-viewed per job: the memory may have grown (its old views stay valid but short).
          const argc = ctrl[ARGC]
          const args = new Float64Array(memory.buffer, ctrl[ARGS], argc)
          argv.length = argc + 3
          for (let i = 0; i < argc; i++) argv[i] = args[i]
          argv[argc] = k0
          argv[argc + 1] = k1
          argv[argc + 2] = ctrl[BY_RANGE] === 1 ? part : index
          entry[kernel](...argv)
        } catch (e) {
          Atomics.store(ctrl, ERROR, kernel > 0 ? kernel : -3)
        }
      }
      if (Atomics.add(ctrl, DONE, 1) + 1 === parts) Atomics.notify(ctrl, DONE)
    }
  }
}`

export interface SlabPoolOptions {
  /** Total threads including the dispatching one; default 1. */
  threads?: number
  /** Below this many cells of work a job runs on the dispatching thread; default 32768 (32^3). */
  minParallelWork?: number
  /** Spin iterations before blocking, for workers and the dispatcher; default 20000 (tens of microseconds). */
  spin?: number
  /** How long to wait for workers to start, ms; default 30000. */
  startTimeoutMs?: number
}

/** A SlabRunner on the calling thread alone. */
export class InlineRunner implements SlabRunner {
  readonly threads = 1
  constructor(private readonly kernels: WasmKernels) {}

  run(kernel: number, args: ArrayLike<number>, argCount: number, n: number): void {
    if (n <= 0) return
    this.kernels.setArgs(args, argCount)
    this.kernels.dispatch(kernel, 0, n, 0)
  }

  begin(kernel: number, args: ArrayLike<number>, argCount: number, n: number): void {
    this.run(kernel, args, argCount, n)
  }

  finish(): void {}

  async close(): Promise<void> {}
}

/**
 * Main-thread side of the pool. The constructor blocks (Atomics.wait) until every worker has
 * instantiated the module, so it must run where blocking is allowed (Node's main thread, any
 * worker; not a browser's main thread).
 */
export class SlabPool implements SlabRunner {
  readonly threads: number
  readonly minParallelWork: number
  private readonly kernels: WasmKernels
  private readonly ctrl: Int32Array
  private readonly workers: SlabWorkerHandle[] = []
  private readonly spin: number
  private closed = false
  /** The overlapped job's argument block (see "Overlapped jobs"), with more than one thread. */
  private flightArgs: Float64Array | null = null
  /** The job begin() started, until finish(): its kernel, arguments and piece count. */
  private flight: { kernel: number; args: Float64Array; argCount: number; parts: number } | null = null
  /** Jobs run split across threads / on the dispatching thread only (diagnostics). */
  parallelJobs = 0
  inlineJobs = 0

  constructor(kernels: WasmKernels, host: SlabWorkerHost | null, options: SlabPoolOptions = {}) {
    const threads = Math.floor(options.threads ?? 1)
    if (!(threads >= 1 && threads <= MAX_THREADS)) throw new EddyError('INVALID_PARAM', `threads must be a whole number from 1 to ${MAX_THREADS}, got ${options.threads}`)
    if (threads > 1 && host === null) throw new EddyError('INTERNAL', 'a SlabPool with more than one thread needs a worker host')
    this.kernels = kernels
    this.threads = threads
    this.minParallelWork = options.minParallelWork ?? 32768
    this.spin = options.spin ?? 20000
    const at = kernels.arena.alloc(CTRL_INTS * 4, 64)
    this.ctrl = new Int32Array(kernels.arena.buffer(), at, CTRL_INTS)
    this.ctrl[CTRL_ARGS] = kernels.argsPtr
    if (threads === 1 || host === null) return
    // The overlapped job's argument block, made now: made at the first begin(), it could lie in
    // memory a KernelBackend.scoped region gives back, and later blocks then overwrote it.
    const argsAt = kernels.arena.alloc(MAX_KERNEL_ARGS * 8, 64)
    this.flightArgs = new Float64Array(kernels.arena.buffer(), argsAt, MAX_KERNEL_ARGS)
    // Pages from here on are committed ahead; those below hold the module's data and ours.
    const first = Math.ceil((argsAt + MAX_KERNEL_ARGS * 8) / FAULT_PAGE)
    this.ctrl[CTRL_FAULT_NEXT] = first
    this.ctrl[CTRL_FAULT_END] = first
    for (let index = 1; index < threads; index++) {
      this.workers.push(host.spawn({ module: kernels.module, memory: kernels.memory, control: at, index, spin: this.spin, names: kernels.names }))
    }
    const deadline = Date.now() + (options.startTimeoutMs ?? 30000)
    for (;;) {
      const ready = Atomics.load(this.ctrl, CTRL_READY)
      if (ready >= threads - 1) break
      const left = deadline - Date.now()
      if (left <= 0) {
        void this.close()
        throw new EddyError('INTERNAL', `kernel worker threads did not start (${ready} of ${threads - 1} within the time limit)`)
      }
      Atomics.wait(this.ctrl, CTRL_READY, ready, Math.min(left, 100))
    }
    if (Atomics.load(this.ctrl, CTRL_ERROR) !== 0) {
      void this.close()
      throw new EddyError('INTERNAL', 'a kernel worker thread could not instantiate the WebAssembly module')
    }
    kernels.arena.onFresh = (end) => this.commitAhead(end)
  }

  /** Pages of blocks handed out that no worker has committed yet (see "Committing ahead"). */
  get pagesToCommit(): number {
    return Math.max(0, Atomics.load(this.ctrl, CTRL_FAULT_END) - Atomics.load(this.ctrl, CTRL_FAULT_NEXT))
  }

  /**
   * Lets idle workers commit the pages below byte `end` not yet taken (see "Committing ahead"):
   * whole pages only, so a page the next block shares is left to whoever writes it.
   */
  private commitAhead(end: number): void {
    const page = Math.floor(end / FAULT_PAGE)
    const { ctrl } = this
    if (this.closed || page <= ctrl[CTRL_FAULT_END]) return
    Atomics.store(ctrl, CTRL_FAULT_END, page)
    // Workers asleep on WAKE wake, find GEN unchanged and take the pages.
    this.wake()
  }

  run(kernel: number, args: ArrayLike<number>, argCount: number, n: number, work = n, balance: ArrayLike<number> | null = null, piecesPerThread = 1): void {
    if (n <= 0) return
    if (this.closed) throw new EddyError('INTERNAL', 'SlabPool used after close')
    const { kernels } = this
    kernels.setArgs(args, argCount)
    const parts = Math.min(this.threads, n)
    // While an overlapped job is out the workers are its: this one runs here alone.
    if (parts === 1 || work < this.minParallelWork || this.flight !== null) {
      this.inlineJobs++
      kernels.dispatch(kernel, 0, n, 0)
      return
    }
    this.parallelJobs++
    this.takeParts(kernel, this.post(kernel, argCount, n, parts, balance, piecesPerThread))
  }

  begin(kernel: number, args: ArrayLike<number>, argCount: number, n: number, work = n, balance: ArrayLike<number> | null = null, piecesPerThread = 1): void {
    if (this.flight !== null) throw new EddyError('INTERNAL', 'SlabPool.begin while an overlapped job is out')
    if (n <= 0) return
    if (this.closed) throw new EddyError('INTERNAL', 'SlabPool used after close')
    if (this.threads === 1 || Math.min(this.threads, n) === 1 || work < this.minParallelWork) {
      this.run(kernel, args, argCount, n, work, balance, piecesPerThread)
      return
    }
    const { ctrl } = this
    if (argCount > MAX_KERNEL_ARGS) throw new EddyError('INTERNAL', `too many kernel arguments (${argCount})`)
    const own = this.flightArgs as Float64Array
    for (let i = 0; i < argCount; i++) own[i] = args[i]
    ctrl[CTRL_ARGS] = own.byteOffset
    this.parallelJobs++
    // At least one piece a thread, so the caller has some to take at finish().
    const parts = this.post(kernel, argCount, n, Math.min(this.threads, n), balance, Math.max(2, piecesPerThread))
    this.flight = { kernel, args: own, argCount, parts }
  }

  finish(): void {
    const f = this.flight
    if (f === null) return
    this.flight = null
    const { kernels, ctrl } = this
    try {
      kernels.setArgs(f.args, f.argCount)
      this.takeParts(f.kernel, f.parts)
    } finally {
      ctrl[CTRL_ARGS] = kernels.argsPtr
    }
  }

  /**
   * Writes a job's parts (one range per thread, or pieces) and wakes the workers; returns the
   * part count. Its arguments are where ctrl[ARGS] points.
   */
  private post(kernel: number, argCount: number, n: number, threadParts: number, balance: ArrayLike<number> | null, piecesPerThread: number): number {
    const { ctrl } = this
    // Pieces mode: at most MAX_THREADS pieces (the ranges' slots), at most n.
    const pieces = piecesPerThread > 1 ? Math.min(n, MAX_THREADS, Math.floor(piecesPerThread) * this.threads) : 0
    const cuts = pieces > 0 ? pieces : threadParts
    const guided = pieces > 0
    for (let t = 0; t < cuts; t++) {
      const r = CTRL_RANGES + 2 * t
      ctrl[r] = guided ? Math.floor(n * guidedShare(t, cuts)) : Math.floor((n * t) / cuts)
      ctrl[r + 1] = guided ? (t + 1 === cuts ? n : Math.floor(n * guidedShare(t + 1, cuts))) : Math.floor((n * (t + 1)) / cuts)
    }
    if (balance !== null) balancedCuts(balance, n, cuts, ctrl, CTRL_RANGES, guided ? guidedShare : null)
    ctrl[CTRL_PARTS] = cuts
    ctrl[CTRL_BY_RANGE] = guided ? 0 : 1
    ctrl[CTRL_KERNEL] = kernel
    ctrl[CTRL_ARGC] = argCount
    Atomics.store(ctrl, CTRL_DONE, 0)
    // The tag before the generation: a worker that sees the new GEN finds its parts open.
    const gen = (ctrl[CTRL_GEN] + 1) | 0
    Atomics.store(ctrl, CTRL_NEXT, (gen & TAG_MASK) << TAG_SHIFT)
    Atomics.store(ctrl, CTRL_GEN, gen)
    this.wake()
    return cuts
  }

  /** Raises WAKE and wakes the workers asleep on it (after GEN or FAULT_END changed). */
  private wake(): void {
    Atomics.add(this.ctrl, CTRL_WAKE, 1)
    Atomics.notify(this.ctrl, CTRL_WAKE)
  }

  /**
   * Runs the posted job's unclaimed parts on this thread (with its arguments set), waits for the
   * parts the workers claimed, then throws this thread's error or theirs. After an error here
   * the remaining parts are claimed and not run, so the job still ends.
   */
  private takeParts(kernel: number, parts: number): void {
    const { kernels, ctrl } = this
    const byRange = ctrl[CTRL_BY_RANGE] === 1
    let failed: unknown = null
    let ran = 0
    for (;;) {
      const next = Atomics.load(ctrl, CTRL_NEXT)
      const part = next & PART_MASK
      if (part >= parts) break
      if (Atomics.compareExchange(ctrl, CTRL_NEXT, next, next + 1) !== next) continue
      ran++
      const r = CTRL_RANGES + 2 * part
      if (failed === null && ctrl[r] < ctrl[r + 1]) {
        try {
          kernels.dispatch(kernel, ctrl[r], ctrl[r + 1], byRange ? part : 0)
        } catch (e) {
          failed = e
        }
      }
    }
    // The workers' parts: they are still reading the arguments even if ours failed.
    let done = Atomics.add(ctrl, CTRL_DONE, ran) + ran
    let spins = 0
    while (done < parts) {
      if (++spins > this.spin) Atomics.wait(ctrl, CTRL_DONE, done, 1000)
      done = Atomics.load(ctrl, CTRL_DONE)
    }
    const error = Atomics.exchange(ctrl, CTRL_ERROR, 0)
    if (failed !== null) throw failed
    if (error !== 0) throw new EddyError('INTERNAL', `WebAssembly kernel ${error} failed in a worker thread`)
  }

  async close(): Promise<void> {
    if (this.closed) return
    try {
      this.finish()
    } catch {
      // Closing: the job's error has no one left to tell.
    }
    this.closed = true
    const { ctrl } = this
    this.kernels.arena.onFresh = null
    if (this.workers.length > 0) {
      ctrl[CTRL_KERNEL] = CTRL_STOP
      Atomics.add(ctrl, CTRL_GEN, 1)
      this.wake()
    }
    await Promise.all(this.workers.map((w) => w.terminate()))
    this.workers.length = 0
  }
}

/**
 * Pieces taken as threads come free start at these fractions: sizes falling geometrically
 * (ratio max(0.85, 1 - 2 / parts)), so the last pieces are small. With equal pieces a thread
 * that takes the last one while the others are done leaves them waiting half a piece on
 * average; the marker splat, begun before the rigid step and joined late by the calling
 * thread, left the worker waiting about 11 ms a frame so on the gears and bunnies.
 */
export function guidedShare(t: number, parts: number): number {
  const ratio = Math.max(0.85, 1 - 2 / parts)
  return (1 - ratio ** t) / (1 - ratio ** parts)
}

/**
 * Cuts [0, n) into `parts` contiguous ranges of cumulative work (balance[i]: the work of [0, i),
 * nondecreasing, length n + 1) starting at share(t, parts) of the whole (null: equal parts)
 * into out[at + 2t], out[at + 2t + 1]. A range may be empty (all the work in one index); the
 * ranges still cover [0, n) in order. A balance that is not finite or not increasing anywhere
 * leaves the ranges already in out.
 */
export function balancedCuts(balance: ArrayLike<number>, n: number, parts: number, out: Int32Array, at: number, share: ((t: number, parts: number) => number) | null = null): void {
  const total = balance[n] - balance[0]
  if (!(total > 0) || !Number.isFinite(total)) return
  let i = 0
  let last = 0
  out[at] = 0
  for (let t = 1; t < parts; t++) {
    const target = balance[0] + (share === null ? (total * t) / parts : total * share(t, parts))
    while (i < n && balance[i] < target) i++
    // The boundary nearest the target share (ties to the lower), never before the last cut.
    let cut = i > last && target - balance[i - 1] <= balance[i] - target ? i - 1 : i
    if (cut < last) cut = last
    out[at + 2 * t - 1] = cut
    out[at + 2 * t] = cut
    last = cut
  }
  out[at + 2 * parts - 1] = n
}

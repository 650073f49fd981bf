// The liquid's marker move (reference: src-shared/sim/liquid/markerKernels.ts moveMarkersSlab;
// Carlson 2004 eq. 21 with the fused grid -> particle transfer and the obstacle and wall
// constraints). A call covers markers [q0, q1); each marker reads only itself and the grids
// and writes only itself, so the thread split changes nothing.
//
// Bit-identical to the reference: the same float64 expressions in the same order (sample.ts
// MacStencil and lerpAt, affine.ts gradAt, transfer.ts cellOf), float32 data promoted on load
// and rounded on store, Math.max/min as f64.max/min (which agree with JavaScript's on -0 and
// NaN), and NaN coordinates going where the reference's comparisons send them.
import { rf32, ru8, wf32 } from './common'
import { cellAxis, gradU, gradV, gradW, lerpLattice, sampleCell, sampleU, sampleV, sampleW, stencilAt } from './stencil'

// Parameter slots (markerKernels.ts MOVE_PRM).
const H = 0
const DX = 1
const OX = 2
const OY = 3
const OZ = 4
const FUSED = 5
const FLIP = 6
const GX = 7
const GY = 8
const GZ = 9
const RELAX = 10
const APIC = 11

/** moveMarkersSlab over markers [q0, q1). */
export function moveMarkers(
  px: usize, py: usize, pz: usize, vx: usize, vy: usize, vz: usize, T: usize, C: usize, flag: usize,
  u: usize, v: usize, w: usize, uo: usize, vo: usize, wo: usize,
  temp: usize, tempOld: usize, tempResid: usize, du: usize, dv: usize, dw: usize, phi: usize,
  reach: usize, open: usize, prm: usize, nx: i32, ny: i32, nz: i32,
  q0: i32, q1: i32,
): void {
  const h = load<f64>(prm + (H << 3)), dx = load<f64>(prm + (DX << 3))
  const o0 = load<f64>(prm + (OX << 3)), o1 = load<f64>(prm + (OY << 3)), o2 = load<f64>(prm + (OZ << 3))
  const fused = load<f64>(prm + (FUSED << 3)) != 0
  const flip = load<f64>(prm + (FLIP << 3))
  const gx = load<f64>(prm + (GX << 3)), gy = load<f64>(prm + (GY << 3)), gz = load<f64>(prm + (GZ << 3))
  const relax = load<f64>(prm + (RELAX << 3))
  const apic = load<f64>(prm + (APIC << 3)) != 0
  const inv = 1 / dx
  const margin = 0.05 * dx
  const wallEps = 1e-4 * dx
  const hi0 = o0 + <f64>nx * dx, hi1 = o1 + <f64>ny * dx, hi2 = o2 + <f64>nz * dx
  const sx = nx + 1, sy = ny + 1, sz = nz + 1
  const open0 = ru8(open, 0) != 0, open1 = ru8(open, 1) != 0, open2 = ru8(open, 2) != 0
  const open3 = ru8(open, 3) != 0, open4 = ru8(open, 4) != 0, open5 = ru8(open, 5) != 0
  const pairable = fused && apic && flip == 0
  for (let q = q0; q < q1; q++) {
    const x = rf32(px, q), y = rf32(py, q), z = rf32(pz, q)
    let nxp: f64, nyp: f64, nzp: f64
    const X = (x - o0) * inv, Y = (y - o1) * inv, Z = (z - o2) * inv
    const ci = cellAxis(X, nx), cj = cellAxis(Y, ny), ck = cellAxis(Z, nz)
    const spray = ci >= 0 && cj >= 0 && ck >= 0 && ru8(reach, ci + nx * (cj + ny * ck)) == 0
    if (!spray && pairable && q + 1 < q1) {
      // Two markers side by side (the fused APIC move, the app's default): each one's operations as
      // alone, in two stencils (slots 0 and 1), interleaved statement by statement so the
      // processor overlaps the two chains of dependent loads and products.
      const r = q + 1
      const xB = rf32(px, r), yB = rf32(py, r), zB = rf32(pz, r)
      const XB = (xB - o0) * inv, YB = (yB - o1) * inv, ZB = (zB - o2) * inv
      const ciB = cellAxis(XB, nx), cjB = cellAxis(YB, ny), ckB = cellAxis(ZB, nz)
      if (!(ciB >= 0 && cjB >= 0 && ckB >= 0 && ru8(reach, ciB + nx * (cjB + ny * ckB)) == 0)) {
        stencilAt(X, Y, Z, nx, ny, nz, 0)
        stencilAt(XB, YB, ZB, nx, ny, nz, 1)
        const o = 9 * q, oB = 9 * r
        let u0 = gradU(u, nx, ny, inv, C, o, 0)
        let u0B = gradU(u, nx, ny, inv, C, oB, 1)
        let v0 = gradV(v, nx, ny, inv, C, o + 3, 0)
        let v0B = gradV(v, nx, ny, inv, C, oB + 3, 1)
        let w0 = gradW(w, nx, ny, inv, C, o + 6, 0)
        let w0B = gradW(w, nx, ny, inv, C, oB + 6, 1)
        if (temp != 0) {
          const t = sampleCell(temp, nx, ny, 0), tB = sampleCell(temp, nx, ny, 1)
          const told = sampleCell(tempOld, nx, ny, 0), toldB = sampleCell(tempOld, nx, ny, 1)
          const dt = t - told, dtB = tB - toldB
          if (relax != 0) {
            const tq = rf32(T, q), tqB = rf32(T, r)
            wf32(T, q, tq + (dt - relax * (tq - told - sampleCell(tempResid, nx, ny, 0))))
            wf32(T, r, tqB + (dtB - relax * (tqB - toldB - sampleCell(tempResid, nx, ny, 1))))
          } else {
            if (dt != 0) wf32(T, q, rf32(T, q) + dt)
            if (dtB != 0) wf32(T, r, rf32(T, r) + dtB)
          }
        }
        wf32(vx, q, u0)
        wf32(vy, q, v0)
        wf32(vz, q, w0)
        wf32(vx, r, u0B)
        wf32(vy, r, v0B)
        wf32(vz, r, w0B)
        if (du != 0) {
          u0 += sampleU(du, nx, ny, 0)
          u0B += sampleU(du, nx, ny, 1)
          v0 += sampleV(dv, nx, ny, 0)
          v0B += sampleV(dv, nx, ny, 1)
          w0 += sampleW(dw, nx, ny, 0)
          w0B += sampleW(dw, nx, ny, 1)
        }
        const x1 = x + h * u0, y1 = y + h * v0, z1 = z + h * w0
        const x1B = xB + h * u0B, y1B = yB + h * v0B, z1B = zB + h * w0B
        stencilAt((x1 - o0) * inv, (y1 - o1) * inv, (z1 - o2) * inv, nx, ny, nz, 0)
        stencilAt((x1B - o0) * inv, (y1B - o1) * inv, (z1B - o2) * inv, nx, ny, nz, 1)
        let u1 = sampleU(u, nx, ny, 0)
        let u1B = sampleU(u, nx, ny, 1)
        let v1 = sampleV(v, nx, ny, 0)
        let v1B = sampleV(v, nx, ny, 1)
        let w1 = sampleW(w, nx, ny, 0)
        let w1B = sampleW(w, nx, ny, 1)
        if (du != 0) {
          u1 += sampleU(du, nx, ny, 0)
          u1B += sampleU(du, nx, ny, 1)
          v1 += sampleV(dv, nx, ny, 0)
          v1B += sampleV(dv, nx, ny, 1)
          w1 += sampleW(dw, nx, ny, 0)
          w1B += sampleW(dw, nx, ny, 1)
        }
        finishMove(q, x + 0.5 * h * (u0 + u1), y + 0.5 * h * (v0 + v1), z + 0.5 * h * (w0 + w1), px, py, pz, vx, vy, vz, flag, phi, sx, sy, sz, o0, o1, o2, inv, dx, margin, wallEps, hi0, hi1, hi2, open0, open1, open2, open3, open4, open5)
        finishMove(r, xB + 0.5 * h * (u0B + u1B), yB + 0.5 * h * (v0B + v1B), zB + 0.5 * h * (w0B + w1B), px, py, pz, vx, vy, vz, flag, phi, sx, sy, sz, o0, o1, o2, inv, dx, margin, wallEps, hi0, hi1, hi2, open0, open1, open2, open3, open4, open5)
        q++
        continue
      }
    }
    if (spray) {
      if (fused) {
        wf32(vx, q, rf32(vx, q) + h * gx)
        wf32(vy, q, rf32(vy, q) + h * gy)
        wf32(vz, q, rf32(vz, q) + h * gz)
      }
      nxp = x + h * rf32(vx, q)
      nyp = y + h * rf32(vy, q)
      nzp = z + h * rf32(vz, q)
    } else {
      stencilAt(X, Y, Z, nx, ny, nz)
      let u0: f64, v0: f64, w0: f64
      if (fused) {
        if (apic) {
          const o = 9 * q
          u0 = gradU(u, nx, ny, inv, C, o)
          v0 = gradV(v, nx, ny, inv, C, o + 3)
          w0 = gradW(w, nx, ny, inv, C, o + 6)
        } else {
          u0 = sampleU(u, nx, ny)
          v0 = sampleV(v, nx, ny)
          w0 = sampleW(w, nx, ny)
        }
        if (temp != 0) {
          const t = sampleCell(temp, nx, ny)
          const told = sampleCell(tempOld, nx, ny)
          const dt = t - told
          if (relax != 0) {
            const tq = rf32(T, q)
            wf32(T, q, tq + (dt - relax * (tq - told - sampleCell(tempResid, nx, ny))))
          } else if (dt != 0) wf32(T, q, rf32(T, q) + dt)
        }
        if (flip == 0) {
          wf32(vx, q, u0)
          wf32(vy, q, v0)
          wf32(vz, q, w0)
        } else {
          const pic = 1 - flip
          const ddu = u0 - sampleU(uo, nx, ny)
          const ddv = v0 - sampleV(vo, nx, ny)
          const ddw = w0 - sampleW(wo, nx, ny)
          wf32(vx, q, pic * u0 + flip * (rf32(vx, q) + ddu))
          wf32(vy, q, pic * v0 + flip * (rf32(vy, q) + ddv))
          wf32(vz, q, pic * w0 + flip * (rf32(vz, q) + ddw))
        }
      } else {
        u0 = sampleU(u, nx, ny)
        v0 = sampleV(v, nx, ny)
        w0 = sampleW(w, nx, ny)
      }
      if (du != 0) {
        u0 += sampleU(du, nx, ny)
        v0 += sampleV(dv, nx, ny)
        w0 += sampleW(dw, nx, ny)
      }
      const x1 = x + h * u0, y1 = y + h * v0, z1 = z + h * w0
      stencilAt((x1 - o0) * inv, (y1 - o1) * inv, (z1 - o2) * inv, nx, ny, nz)
      let u1 = sampleU(u, nx, ny)
      let v1 = sampleV(v, nx, ny)
      let w1 = sampleW(w, nx, ny)
      if (du != 0) {
        u1 += sampleU(du, nx, ny)
        v1 += sampleV(dv, nx, ny)
        w1 += sampleW(dw, nx, ny)
      }
      nxp = x + 0.5 * h * (u0 + u1)
      nyp = y + 0.5 * h * (v0 + v1)
      nzp = z + 0.5 * h * (w0 + w1)
    }
    finishMove(q, nxp, nyp, nzp, px, py, pz, vx, vy, vz, flag, phi, sx, sy, sz, o0, o1, o2, inv, dx, margin, wallEps, hi0, hi1, hi2, open0, open1, open2, open3, open4, open5)
  }
}

/**
 * The end of one marker's move (moveMarkersSlab): pushed out of obstacles along phi's gradient,
 * clamped to closed sides or removed through open ones, then stored.
 */
@inline function finishMove(
  q: i32, nxp: f64, nyp: f64, nzp: f64, px: usize, py: usize, pz: usize, vx: usize, vy: usize, vz: usize, flag: usize,
  phi: usize, sx: i32, sy: i32, sz: i32, o0: f64, o1: f64, o2: f64, inv: f64, dx: f64, margin: f64, wallEps: f64, hi0: f64, hi1: f64, hi2: f64,
  open0: bool, open1: bool, open2: bool, open3: bool, open4: bool, open5: bool,
): void {
  if (phi != 0) {
    const PX = (nxp - o0) * inv, PY = (nyp - o1) * inv, PZ = (nzp - o2) * inv
    const d = lerpLattice(phi, sx, sy, sz, PX, PY, PZ)
    if (d < margin) {
      const ggx = lerpLattice(phi, sx, sy, sz, PX + 0.5, PY, PZ) - lerpLattice(phi, sx, sy, sz, PX - 0.5, PY, PZ)
      const ggy = lerpLattice(phi, sx, sy, sz, PX, PY + 0.5, PZ) - lerpLattice(phi, sx, sy, sz, PX, PY - 0.5, PZ)
      const ggz = lerpLattice(phi, sx, sy, sz, PX, PY, PZ + 0.5) - lerpLattice(phi, sx, sy, sz, PX, PY, PZ - 0.5)
      const g = Math.sqrt(ggx * ggx + ggy * ggy + ggz * ggz)
      if (!(g > 1e-6 * dx)) {
        store<u8>(flag + <usize>q, 1)
        return
      }
      const s = (margin - d) / g
      nxp += s * ggx
      nyp += s * ggy
      nzp += s * ggz
      const qvx = rf32(vx, q), qvy = rf32(vy, q), qvz = rf32(vz, q)
      const vn = (qvx * ggx + qvy * ggy + qvz * ggz) / g
      if (vn < 0) {
        wf32(vx, q, qvx - (vn * ggx) / g)
        wf32(vy, q, qvy - (vn * ggy) / g)
        wf32(vz, q, qvz - (vn * ggz) / g)
      }
    }
  }
  let out = false
  if (nxp < o0 + wallEps) {
    if (open0) out = true
    else {
      nxp = o0 + wallEps
      wf32(vx, q, Math.max(rf32(vx, q), 0))
    }
  } else if (nxp > hi0 - wallEps) {
    if (open1) out = true
    else {
      nxp = hi0 - wallEps
      wf32(vx, q, Math.min(rf32(vx, q), 0))
    }
  }
  if (nyp < o1 + wallEps) {
    if (open2) out = true
    else {
      nyp = o1 + wallEps
      wf32(vy, q, Math.max(rf32(vy, q), 0))
    }
  } else if (nyp > hi1 - wallEps) {
    if (open3) out = true
    else {
      nyp = hi1 - wallEps
      wf32(vy, q, Math.min(rf32(vy, q), 0))
    }
  }
  if (nzp < o2 + wallEps) {
    if (open4) out = true
    else {
      nzp = o2 + wallEps
      wf32(vz, q, Math.max(rf32(vz, q), 0))
    }
  } else if (nzp > hi2 - wallEps) {
    if (open5) out = true
    else {
      nzp = hi2 - wallEps
      wf32(vz, q, Math.min(rf32(vz, q), 0))
    }
  }
  if (out) {
    store<u8>(flag + <usize>q, 1)
    return
  }
  wf32(px, q, nxp)
  wf32(py, q, nyp)
  wf32(pz, q, nzp)
  store<u8>(flag + <usize>q, 0)
}

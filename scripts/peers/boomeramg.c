/*
 * The peer of Eddy's AMG-CG (`eddy bench tetmesh --hypre <this program>`): hypre's BoomerAMG
 * with its defaults (hypre 2.26: HMIS coarsening, extended+i interpolation, at most 4 entries
 * a row of P, strength threshold 0.25, l1-Gauss-Seidel smoothing) as the preconditioner of
 * hypre's PCG, on the matrix and right-hand side Eddy wrote, to the same stopping rule as
 * Eddy's PcgSolver (||r||_2 <= 1e-6 ||b||_2). One process, one thread.
 *
 * Input file (little-endian): "EDCSR1\0\0" | int32 n | int32 nnz | int32 rowPtr[n + 1] |
 * int32 col[nnz] | float64 val[nnz] | float64 b[n].
 * Output: one line `HYPRE_RESULT {"unknowns":..,"setup":s,"solve":s,"iterations":..,"relres":..}`.
 *
 * Built by scripts/bench-peers.mjs (`npm run bench:peers -- tetmesh`) with
 *   mpicc -O2 boomeramg.c -I/usr/include/hypre -lHYPRE -o boomeramg
 * (Debian: apt-get install libhypre-dev).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "HYPRE.h"
#include "HYPRE_parcsr_ls.h"

static void fail(const char *what) {
  fprintf(stderr, "boomeramg: %s\n", what);
  exit(1);
}

static void readExactly(FILE *f, void *to, size_t size, size_t count, const char *what) {
  if (fread(to, size, count, f) != count) fail(what);
}

/* A hypre vector of n values (the IJ handle in *ij, to destroy; its ParCSR view returned). */
static HYPRE_ParVector parVector(int n, int *rows, double *values, HYPRE_IJVector *ij) {
  HYPRE_ParVector par;
  HYPRE_IJVectorCreate(MPI_COMM_WORLD, 0, n - 1, ij);
  HYPRE_IJVectorSetObjectType(*ij, HYPRE_PARCSR);
  HYPRE_IJVectorInitialize(*ij);
  HYPRE_IJVectorSetValues(*ij, n, rows, values);
  HYPRE_IJVectorAssemble(*ij);
  HYPRE_IJVectorGetObject(*ij, (void **)&par);
  return par;
}

int main(int argc, char **argv) {
  if (argc != 2) fail("usage: boomeramg MATRIX_FILE");
  MPI_Init(&argc, &argv);
  HYPRE_Init();

  FILE *f = fopen(argv[1], "rb");
  if (!f) fail("cannot open the matrix file");
  char magic[8];
  readExactly(f, magic, 1, 8, "the file is shorter than its header");
  if (memcmp(magic, "EDCSR1\0\0", 8) != 0) fail("the file does not start with EDCSR1");
  int n = 0, nnz = 0;
  readExactly(f, &n, sizeof(int), 1, "no row count");
  readExactly(f, &nnz, sizeof(int), 1, "no entry count");
  if (n <= 0 || nnz <= 0) fail("empty matrix");
  int *rowPtr = malloc(sizeof(int) * (size_t)(n + 1));
  int *col = malloc(sizeof(int) * (size_t)nnz);
  double *val = malloc(sizeof(double) * (size_t)nnz);
  double *b = malloc(sizeof(double) * (size_t)n);
  double *x = calloc((size_t)n, sizeof(double));
  int *rows = malloc(sizeof(int) * (size_t)n);
  int *sizes = malloc(sizeof(int) * (size_t)n);
  if (!rowPtr || !col || !val || !b || !x || !rows || !sizes) fail("out of memory");
  readExactly(f, rowPtr, sizeof(int), (size_t)n + 1, "rowPtr is cut off");
  readExactly(f, col, sizeof(int), (size_t)nnz, "col is cut off");
  readExactly(f, val, sizeof(double), (size_t)nnz, "val is cut off");
  readExactly(f, b, sizeof(double), (size_t)n, "b is cut off");
  fclose(f);
  if (rowPtr[0] != 0 || rowPtr[n] != nnz) fail("rowPtr does not span the entries");
  for (int i = 0; i < n; i++) {
    rows[i] = i;
    sizes[i] = rowPtr[i + 1] - rowPtr[i];
    if (sizes[i] < 0) fail("rowPtr decreases");
  }
  for (int p = 0; p < nnz; p++) if (col[p] < 0 || col[p] >= n) fail("a column index is out of range");

  HYPRE_IJMatrix A;
  HYPRE_ParCSRMatrix parA;
  HYPRE_IJMatrixCreate(MPI_COMM_WORLD, 0, n - 1, 0, n - 1, &A);
  HYPRE_IJMatrixSetObjectType(A, HYPRE_PARCSR);
  HYPRE_IJMatrixSetRowSizes(A, sizes);
  HYPRE_IJMatrixInitialize(A);
  HYPRE_IJMatrixSetValues(A, n, sizes, rows, col, val);
  HYPRE_IJMatrixAssemble(A);
  HYPRE_IJMatrixGetObject(A, (void **)&parA);

  HYPRE_IJVector B, X;
  HYPRE_ParVector parB = parVector(n, rows, b, &B), parX = parVector(n, rows, x, &X);

  HYPRE_Solver pcg, amg;
  HYPRE_ParCSRPCGCreate(MPI_COMM_WORLD, &pcg);
  HYPRE_PCGSetTol(pcg, 1e-6);
  HYPRE_PCGSetMaxIter(pcg, 5000);
  HYPRE_PCGSetTwoNorm(pcg, 1);
  HYPRE_PCGSetPrintLevel(pcg, 0);
  // BoomerAMG's defaults throughout; one V-cycle per application, as a preconditioner.
  HYPRE_BoomerAMGCreate(&amg);
  HYPRE_BoomerAMGSetTol(amg, 0.0);
  HYPRE_BoomerAMGSetMaxIter(amg, 1);
  HYPRE_BoomerAMGSetPrintLevel(amg, 0);
  HYPRE_PCGSetPrecond(pcg, (HYPRE_PtrToSolverFcn)HYPRE_BoomerAMGSolve, (HYPRE_PtrToSolverFcn)HYPRE_BoomerAMGSetup, amg);

  // PCG's setup runs BoomerAMG's (coarsening, interpolation, Galerkin products).
  double t0 = MPI_Wtime();
  HYPRE_ParCSRPCGSetup(pcg, parA, parB, parX);
  double t1 = MPI_Wtime();
  HYPRE_ParCSRPCGSolve(pcg, parA, parB, parX);
  double t2 = MPI_Wtime();
  int iterations = 0;
  double relres = 0;
  HYPRE_PCGGetNumIterations(pcg, &iterations);
  HYPRE_PCGGetFinalRelativeResidualNorm(pcg, &relres);
  printf("HYPRE_RESULT {\"unknowns\":%d,\"setup\":%.6f,\"solve\":%.6f,\"iterations\":%d,\"relres\":%.3e}\n", n, t1 - t0, t2 - t1, iterations, relres);

  HYPRE_BoomerAMGDestroy(amg);
  HYPRE_ParCSRPCGDestroy(pcg);
  HYPRE_IJMatrixDestroy(A);
  HYPRE_IJVectorDestroy(B);
  HYPRE_IJVectorDestroy(X);
  free(rowPtr);
  free(col);
  free(val);
  free(b);
  free(x);
  free(rows);
  free(sizes);
  HYPRE_Finalize();
  MPI_Finalize();
  return 0;
}

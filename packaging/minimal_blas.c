/* The BLAS and LAPACK entry points numpy's Linux wheel calls, in plain C, standing in for the
 * 25 MB OpenBLAS it bundles (see packaging/small_blas.py for why and how it is swapped in).
 *
 * Names and calling conventions are scipy-openblas64's: CBLAS with 64-bit integers
 * (scipy_cblas_<name>64_) and Fortran LAPACK with 64-bit integers (scipy_<name>_64_, every
 * argument a pointer). The app's arrays are short (a figure's few points, a 3x3 transform), so
 * the loops are the textbook ones, correct for any order, transpose, stride and leading
 * dimension. One LAPACK routine is real, the SVD (dgesdd, by one-sided Jacobi rotations), which
 * pyqtgraph calls to invert a singular 3x3 transform (numpy.linalg.pinv); every other LAPACK
 * routine reports an illegal first argument (INFO = -1), which numpy turns into LinAlgError.
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef int64_t blasint;
enum { RowMajor = 101, NoTrans = 111, ConjTrans = 113, Upper = 121 };

#define IDX(row, r, c, ld) ((row) ? (r) * (ld) + (c) : (r) + (c) * (ld))
#define START(n, inc) ((inc) < 0 ? (1 - (n)) * (inc) : 0)

/* ---- level 1: axpy, dot ---------------------------------------------------------------- */
#define AXPY(name, T, ALPHA_T, ALPHA)                                                        \
    void name(blasint n, ALPHA_T alpha, const T *x, blasint incx, T *y, blasint incy) {      \
        T a = ALPHA;                                                                         \
        blasint ix = START(n, incx), iy = START(n, incy);                                    \
        for (blasint i = 0; i < n; i++, ix += incx, iy += incy) y[iy] += a * x[ix];          \
    }
AXPY(scipy_cblas_saxpy64_, float, float, alpha)
AXPY(scipy_cblas_daxpy64_, double, double, alpha)
AXPY(scipy_cblas_caxpy64_, float complex, const void *, *(const float complex *)alpha)
AXPY(scipy_cblas_zaxpy64_, double complex, const void *, *(const double complex *)alpha)

#define DOT_SUM(T, CONJ)                                                                     \
    T sum = 0;                                                                               \
    blasint ix = START(n, incx), iy = START(n, incy);                                        \
    for (blasint i = 0; i < n; i++, ix += incx, iy += incy) sum += CONJ(x[ix]) * y[iy];
#define SAME(v) (v)

float scipy_cblas_sdot64_(blasint n, const float *x, blasint incx, const float *y, blasint incy) {
    DOT_SUM(float, SAME) return sum;
}
double scipy_cblas_ddot64_(blasint n, const double *x, blasint incx, const double *y,
                           blasint incy) {
    DOT_SUM(double, SAME) return sum;
}
#define DOT_SUB(name, T, CONJ)                                                               \
    void name(blasint n, const void *vx, blasint incx, const void *vy, blasint incy,         \
              void *ret) {                                                                   \
        const T *x = vx, *y = vy;                                                            \
        DOT_SUM(T, CONJ) *(T *)ret = sum;                                                    \
    }
DOT_SUB(scipy_cblas_cdotu_sub64_, float complex, SAME)
DOT_SUB(scipy_cblas_cdotc_sub64_, float complex, conjf)
DOT_SUB(scipy_cblas_zdotu_sub64_, double complex, SAME)
DOT_SUB(scipy_cblas_zdotc_sub64_, double complex, conj)

/* ---- level 2 and 3: gemv, gemm, syrk ------------------------------------------------------ */
/* op(A)[i][k]: A as stored (row- or column-major), transposed and conjugated as asked */
#define OPA(A, row, trans, i, k, lda, CONJ)                                                  \
    ((trans) == NoTrans ? (A)[IDX(row, i, k, lda)]                                           \
                        : ((trans) == ConjTrans ? CONJ((A)[IDX(row, k, i, lda)])             \
                                                : (A)[IDX(row, k, i, lda)]))

#define GEMV(name, T, SCALAR_T, GET, CONJ)                                                   \
    void name(int order, int trans, blasint m, blasint n, SCALAR_T valpha, const void *va,   \
              blasint lda, const void *vx, blasint incx, SCALAR_T vbeta, void *vy,           \
              blasint incy) {                                                                \
        const T *a = va, *x = vx;                                                            \
        T *y = vy, alpha = GET(valpha), beta = GET(vbeta);                                   \
        int row = order == RowMajor;                                                         \
        blasint rows = trans == NoTrans ? m : n, cols = trans == NoTrans ? n : m;            \
        blasint iy = START(rows, incy);                                                      \
        for (blasint i = 0; i < rows; i++, iy += incy) {                                     \
            T sum = 0;                                                                       \
            blasint ix = START(cols, incx);                                                  \
            for (blasint k = 0; k < cols; k++, ix += incx)                                   \
                sum += OPA(a, row, trans, i, k, lda, CONJ) * x[ix];                          \
            y[iy] = alpha * sum + (beta == (T)0 ? (T)0 : beta * y[iy]);                      \
        }                                                                                    \
    }
#define VALUE(v) (v)
#define CPTR(v) (*(const float complex *)(v))
#define ZPTR(v) (*(const double complex *)(v))
GEMV(scipy_cblas_sgemv64_, float, float, VALUE, SAME)
GEMV(scipy_cblas_dgemv64_, double, double, VALUE, SAME)
GEMV(scipy_cblas_cgemv64_, float complex, const void *, CPTR, conjf)
GEMV(scipy_cblas_zgemv64_, double complex, const void *, ZPTR, conj)

#define GEMM(name, T, SCALAR_T, GET, CONJ)                                                   \
    void name(int order, int ta, int tb, blasint m, blasint n, blasint k, SCALAR_T valpha,   \
              const void *va, blasint lda, const void *vb, blasint ldb, SCALAR_T vbeta,      \
              void *vc, blasint ldc) {                                                       \
        const T *a = va, *b = vb;                                                            \
        T *c = vc, alpha = GET(valpha), beta = GET(vbeta);                                   \
        int row = order == RowMajor;                                                         \
        for (blasint i = 0; i < m; i++)                                                      \
            for (blasint j = 0; j < n; j++) {                                                \
                T sum = 0;                                                                   \
                for (blasint p = 0; p < k; p++)                                              \
                    sum += OPA(a, row, ta, i, p, lda, CONJ) * OPA(b, row, tb, p, j, ldb, CONJ); \
                T *out = &c[IDX(row, i, j, ldc)];                                            \
                *out = alpha * sum + (beta == (T)0 ? (T)0 : beta * *out);                    \
            }                                                                                \
    }
GEMM(scipy_cblas_sgemm64_, float, float, VALUE, SAME)
GEMM(scipy_cblas_dgemm64_, double, double, VALUE, SAME)
GEMM(scipy_cblas_cgemm64_, float complex, const void *, CPTR, conjf)
GEMM(scipy_cblas_zgemm64_, double complex, const void *, ZPTR, conj)

/* C = alpha op(A) op(A)^T + beta C (no conjugation: syrk, not herk), the uplo triangle only */
#define SYRK(name, T, SCALAR_T, GET)                                                         \
    void name(int order, int uplo, int trans, blasint n, blasint k, SCALAR_T valpha,         \
              const void *va, blasint lda, SCALAR_T vbeta, void *vc, blasint ldc) {          \
        const T *a = va;                                                                     \
        T *c = vc, alpha = GET(valpha), beta = GET(vbeta);                                   \
        int row = order == RowMajor;                                                         \
        for (blasint i = 0; i < n; i++)                                                      \
            for (blasint j = 0; j < n; j++) {                                                \
                if (uplo == Upper ? j < i : j > i) continue;                                 \
                T sum = 0;                                                                   \
                for (blasint p = 0; p < k; p++)                                              \
                    sum += OPA(a, row, trans, i, p, lda, SAME) *                             \
                           OPA(a, row, trans, j, p, lda, SAME);                              \
                T *out = &c[IDX(row, i, j, ldc)];                                            \
                *out = alpha * sum + (beta == (T)0 ? (T)0 : beta * *out);                    \
            }                                                                                \
    }
SYRK(scipy_cblas_ssyrk64_, float, float, VALUE)
SYRK(scipy_cblas_dsyrk64_, double, double, VALUE)
SYRK(scipy_cblas_csyrk64_, float complex, const void *, CPTR)
SYRK(scipy_cblas_zsyrk64_, double complex, const void *, ZPTR)

/* ---- Fortran BLAS copy (numpy.linalg moves matrices in and out with it) ----------------- */
#define COPY(name, T)                                                                        \
    void name(const blasint *n, const T *x, const blasint *incx, T *y, const blasint *incy) { \
        blasint ix = START(*n, *incx), iy = START(*n, *incy);                                \
        for (blasint i = 0; i < *n; i++, ix += *incx, iy += *incy) y[iy] = x[ix];            \
    }
COPY(scipy_scopy_64_, float)
COPY(scipy_dcopy_64_, double)
COPY(scipy_ccopy_64_, float complex)
COPY(scipy_zcopy_64_, double complex)

/* ---- LAPACK: the real SVD ------------------------------------------------------------------ */
/* One-sided Jacobi on the columns of W (rows x cols, column-major, cols <= rows): rotations
 * make the columns orthogonal, accumulated in V (cols x cols); then W = U diag(s). */
static void jacobi(double *w, blasint rows, blasint cols, double *v) {
    for (blasint i = 0; i < cols; i++)
        for (blasint j = 0; j < cols; j++) v[i + j * cols] = i == j;
    for (int sweep = 0; sweep < 60; sweep++) {
        int rotated = 0;
        for (blasint p = 0; p < cols - 1; p++)
            for (blasint q = p + 1; q < cols; q++) {
                double alpha = 0, beta = 0, gamma = 0;
                for (blasint i = 0; i < rows; i++) {
                    double a = w[i + p * rows], b = w[i + q * rows];
                    alpha += a * a, beta += b * b, gamma += a * b;
                }
                if (fabs(gamma) <= 1e-15 * sqrt(alpha * beta) || gamma == 0) continue;
                rotated = 1;
                double zeta = (beta - alpha) / (2 * gamma);
                double t = copysign(1.0, zeta) / (fabs(zeta) + sqrt(1 + zeta * zeta));
                double c = 1 / sqrt(1 + t * t), s = c * t;
                for (blasint i = 0; i < rows; i++) {
                    double a = w[i + p * rows], b = w[i + q * rows];
                    w[i + p * rows] = c * a - s * b, w[i + q * rows] = s * a + c * b;
                }
                for (blasint i = 0; i < cols; i++) {
                    double a = v[i + p * cols], b = v[i + q * cols];
                    v[i + p * cols] = c * a - s * b, v[i + q * cols] = s * a + c * b;
                }
            }
        if (!rotated) break;
    }
}

/* Column j of an orthonormal set (rows long, columns 0..j-1 done): w's column normalised, or,
 * for a zero singular value, the first unit vector not in the span of the others. */
static void orthonormal_column(double *u, blasint rows, blasint j) {
    for (blasint e = -1; e < rows; e++) {
        if (e >= 0)
            for (blasint i = 0; i < rows; i++) u[i + j * rows] = i == e;
        for (int twice = 0; twice < 2; twice++)
            for (blasint k = 0; k < j; k++) {
                double d = 0;
                for (blasint i = 0; i < rows; i++) d += u[i + k * rows] * u[i + j * rows];
                for (blasint i = 0; i < rows; i++) u[i + j * rows] -= d * u[i + k * rows];
            }
        double norm = 0;
        for (blasint i = 0; i < rows; i++) norm += u[i + j * rows] * u[i + j * rows];
        if (norm > 1e-20) {
            for (blasint i = 0; i < rows; i++) u[i + j * rows] /= sqrt(norm);
            return;
        }
    }
}

#include <stdlib.h>

/* dgesdd(JOBZ, M, N, A, LDA, S, U, LDU, VT, LDVT, WORK, LWORK, IWORK, INFO): JOBZ 'N', 'S',
 * 'O' is refused; 'A' for square matrices only (where it equals 'S'). */
void scipy_dgesdd_64_(const char *jobz, const blasint *pm, const blasint *pn, double *a,
                      const blasint *lda, double *s, double *u, const blasint *ldu, double *vt,
                      const blasint *ldvt, double *work, const blasint *lwork, blasint *iwork,
                      blasint *info) {
    (void)iwork;
    blasint m = *pm, n = *pn, k = m < n ? m : n;
    char job = *jobz | 0x20;   /* lower case */
    *info = 0;
    if (job != 'n' && job != 's' && !(job == 'a' && m == n)) {
        *info = -1;
        return;
    }
    if (*lwork == -1) {
        work[0] = 1;
        return;
    }
    int tall = m >= n;                 /* work on A (m x n) or on A^T (n x m) */
    blasint rows = tall ? m : n, cols = k;
    double *w = malloc(sizeof(double) * rows * cols), *v = malloc(sizeof(double) * cols * cols);
    blasint *order = malloc(sizeof(blasint) * cols);
    if (!w || !v || !order) {
        free(w), free(v), free(order);
        *info = -1;
        return;
    }
    for (blasint i = 0; i < rows; i++)
        for (blasint j = 0; j < cols; j++)
            w[i + j * rows] = tall ? a[i + j * *lda] : a[j + i * *lda];
    jacobi(w, rows, cols, v);
    double *norm = malloc(sizeof(double) * cols);
    for (blasint j = 0; j < cols; j++) {
        double d = 0;
        for (blasint i = 0; i < rows; i++) d += w[i + j * rows] * w[i + j * rows];
        norm[j] = sqrt(d);
        order[j] = j;
    }
    for (blasint i = 1; i < cols; i++)   /* largest first */
        for (blasint j = i; j > 0 && norm[order[j]] > norm[order[j - 1]]; j--) {
            blasint t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    double *left = malloc(sizeof(double) * rows * cols);   /* orthonormal, sorted columns of w */
    for (blasint j = 0; j < cols; j++) {
        blasint src = order[j];
        s[j] = norm[src];
        for (blasint i = 0; i < rows; i++)
            left[i + j * rows] = norm[src] > 0 ? w[i + src * rows] / norm[src] : 0;
        if (norm[src] <= 1e-300) orthonormal_column(left, rows, j);
    }
    if (job != 'n') {
        /* tall: A = left diag(s) V^T; wide: A^T = left diag(s) V^T, so A = V diag(s) left^T */
        for (blasint j = 0; j < k; j++) {
            for (blasint i = 0; i < m; i++)
                u[i + j * *ldu] = tall ? left[i + j * rows] : v[i + order[j] * cols];
            for (blasint i = 0; i < n; i++)
                vt[j + i * *ldvt] = tall ? v[i + order[j] * cols] : left[i + j * rows];
        }
    }
    free(w), free(v), free(order), free(norm), free(left);
}

/* ---- LAPACK: the others refuse (numpy raises LinAlgError) --------------------------------- */
#define P void *
#define REFUSE(name, ...)                                                                    \
    void name(__VA_ARGS__, blasint *info) { *info = -1; }
REFUSE(scipy_sgesdd_64_, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_cgesdd_64_, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_zgesdd_64_, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_sgesv_64_, P, P, P, P, P, P, P)
REFUSE(scipy_dgesv_64_, P, P, P, P, P, P, P)
REFUSE(scipy_cgesv_64_, P, P, P, P, P, P, P)
REFUSE(scipy_zgesv_64_, P, P, P, P, P, P, P)
REFUSE(scipy_sgetrf_64_, P, P, P, P, P)
REFUSE(scipy_dgetrf_64_, P, P, P, P, P)
REFUSE(scipy_cgetrf_64_, P, P, P, P, P)
REFUSE(scipy_zgetrf_64_, P, P, P, P, P)
REFUSE(scipy_spotrf_64_, P, P, P, P)
REFUSE(scipy_dpotrf_64_, P, P, P, P)
REFUSE(scipy_cpotrf_64_, P, P, P, P)
REFUSE(scipy_zpotrf_64_, P, P, P, P)
REFUSE(scipy_ssyevd_64_, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_dsyevd_64_, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_cheevd_64_, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_zheevd_64_, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_sgeev_64_, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_dgeev_64_, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_cgeev_64_, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_zgeev_64_, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_sgelsd_64_, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_dgelsd_64_, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_cgelsd_64_, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_zgelsd_64_, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
REFUSE(scipy_dgeqrf_64_, P, P, P, P, P, P, P)
REFUSE(scipy_zgeqrf_64_, P, P, P, P, P, P, P)
REFUSE(scipy_dorgqr_64_, P, P, P, P, P, P, P, P)
REFUSE(scipy_zungqr_64_, P, P, P, P, P, P, P, P)

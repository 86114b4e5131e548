/* A model written by hand in the form of CasADi 3.7's generated code
 * (nlpsol(...).generate_dependencies with force_canonical = true, so every
 * pattern is in compressed column form, none in the dense short form):
 *
 *   minimize    f = (x0 - p0)^2 + (x1 - p1)^2 + x2^2
 *   subject to  g0 = x0 x1 - x2   (an equality row in the tests)
 *               g1 = x0 + x1      (an upper bound in the tests)
 *
 * Jacobian 2x3 with 5 nonzeros, Hessian upper triangle with 4.
 * Built three ways by test/meson.build: as is; with QPM_TEST_NO_JAC_G (the
 * symbol nlp_jac_g is missing); with QPM_TEST_WRONG_JAC_ROWS (nlp_jac_g
 * claims 3 rows). The test hooks sparse_model_refcount and
 * sparse_model_checked_out count incref/decref and checkout/release. */
#ifdef __cplusplus
extern "C" {
#endif

#ifndef casadi_real
#define casadi_real double
#endif

#ifndef casadi_int
#define casadi_int long long int
#endif

#ifndef CASADI_SYMBOL_EXPORT
#define CASADI_SYMBOL_EXPORT __attribute__((visibility("default")))
#endif

#define CASADI_MAX_NUM_THREADS 32 /* one pool shared by all five functions */

static const casadi_int casadi_s_x[7] = {3, 1, 0, 3, 0, 1, 2};
static const casadi_int casadi_s_p[6] = {2, 1, 0, 2, 0, 1};
static const casadi_int casadi_s_scalar[5] = {1, 1, 0, 1, 0};
static const casadi_int casadi_s_g[6] = {2, 1, 0, 2, 0, 1};
#ifdef QPM_TEST_WRONG_JAC_ROWS
static const casadi_int casadi_s_jac[11] = {3, 3, 0, 2, 4, 5, 0, 1, 0, 1, 0};
#else
static const casadi_int casadi_s_jac[11] = {2, 3, 0, 2, 4, 5, 0, 1, 0, 1, 0};
#endif
static const casadi_int casadi_s_hess[10] = {3, 3, 0, 1, 3, 4, 0, 0, 1, 2};

static int refcount = 0;
static int mem_used[CASADI_MAX_NUM_THREADS];

CASADI_SYMBOL_EXPORT int sparse_model_refcount(void) { return refcount; }

CASADI_SYMBOL_EXPORT int sparse_model_checked_out(void) {
  int i, n = 0;
  for (i = 0; i < CASADI_MAX_NUM_THREADS; ++i) n += mem_used[i];
  return n;
}

static int casadi_checkout(void) {
  int i;
  for (i = 0; i < CASADI_MAX_NUM_THREADS; ++i) {
    if (!mem_used[i]) {
      mem_used[i] = 1;
      return i;
    }
  }
  return -1;
}

static void casadi_release(int mem) { mem_used[mem] = 0; }

/* Copies x and p into w, as CasADi's generated code does with its inputs. */
static void casadi_load(const casadi_real** arg, casadi_real* w) {
  int i;
  for (i = 0; i < 3; ++i) w[i] = arg[0] ? arg[0][i] : 0;
  for (i = 0; i < 2; ++i) w[3 + i] = arg[1] ? arg[1][i] : 0;
}

static casadi_real casadi_fval(const casadi_real* w) {
  casadi_real a = w[0] - w[3], b = w[1] - w[4];
  return a * a + b * b + w[2] * w[2];
}

static void casadi_gval(const casadi_real* w, casadi_real* g) {
  g[0] = w[0] * w[1] - w[2];
  g[1] = w[0] + w[1];
}

#define CASADI_COMMON(F, NIN, NOUT, SZW)                                        \
  CASADI_SYMBOL_EXPORT int F##_alloc_mem(void) { return 0; }                    \
  CASADI_SYMBOL_EXPORT int F##_init_mem(int mem) { return 0; }                  \
  CASADI_SYMBOL_EXPORT void F##_free_mem(int mem) {}                            \
  CASADI_SYMBOL_EXPORT int F##_checkout(void) { return casadi_checkout(); }     \
  CASADI_SYMBOL_EXPORT void F##_release(int mem) { casadi_release(mem); }       \
  CASADI_SYMBOL_EXPORT void F##_incref(void) { ++refcount; }                    \
  CASADI_SYMBOL_EXPORT void F##_decref(void) { --refcount; }                    \
  CASADI_SYMBOL_EXPORT casadi_int F##_n_in(void) { return NIN; }                \
  CASADI_SYMBOL_EXPORT casadi_int F##_n_out(void) { return NOUT; }              \
  CASADI_SYMBOL_EXPORT int F##_work(casadi_int* sz_arg, casadi_int* sz_res,     \
                                    casadi_int* sz_iw, casadi_int* sz_w) {      \
    if (sz_arg) *sz_arg = NIN;                                                  \
    if (sz_res) *sz_res = NOUT;                                                 \
    if (sz_iw) *sz_iw = 0;                                                      \
    if (sz_w) *sz_w = SZW;                                                      \
    return 0;                                                                   \
  }

/* nlp_f:(x[3],p[2])->(f) */
CASADI_SYMBOL_EXPORT int nlp_f(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                               casadi_real* w, int mem) {
  casadi_load(arg, w);
  if (res[0]) res[0][0] = casadi_fval(w);
  return 0;
}
CASADI_COMMON(nlp_f, 2, 1, 5)
CASADI_SYMBOL_EXPORT const casadi_int* nlp_f_sparsity_in(casadi_int i) {
  switch (i) {
    case 0: return casadi_s_x;
    case 1: return casadi_s_p;
    default: return 0;
  }
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_f_sparsity_out(casadi_int i) {
  return i == 0 ? casadi_s_scalar : 0;
}

/* nlp_g:(x[3],p[2])->(g[2]) */
CASADI_SYMBOL_EXPORT int nlp_g(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                               casadi_real* w, int mem) {
  casadi_load(arg, w);
  if (res[0]) casadi_gval(w, res[0]);
  return 0;
}
CASADI_COMMON(nlp_g, 2, 1, 5)
CASADI_SYMBOL_EXPORT const casadi_int* nlp_g_sparsity_in(casadi_int i) {
  return nlp_f_sparsity_in(i);
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_g_sparsity_out(casadi_int i) {
  return i == 0 ? casadi_s_g : 0;
}

/* nlp_grad_f:(x[3],p[2])->(f,grad:f:x[3]) */
CASADI_SYMBOL_EXPORT int nlp_grad_f(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                                    casadi_real* w, int mem) {
  casadi_load(arg, w);
  if (res[0]) res[0][0] = casadi_fval(w);
  if (res[1]) {
    res[1][0] = 2 * (w[0] - w[3]);
    res[1][1] = 2 * (w[1] - w[4]);
    res[1][2] = 2 * w[2];
  }
  return 0;
}
CASADI_COMMON(nlp_grad_f, 2, 2, 5)
CASADI_SYMBOL_EXPORT const casadi_int* nlp_grad_f_sparsity_in(casadi_int i) {
  return nlp_f_sparsity_in(i);
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_grad_f_sparsity_out(casadi_int i) {
  switch (i) {
    case 0: return casadi_s_scalar;
    case 1: return casadi_s_x;
    default: return 0;
  }
}

#ifndef QPM_TEST_NO_JAC_G
/* nlp_jac_g:(x[3],p[2])->(g[2],jac:g:x[2x3,5nz]) */
CASADI_SYMBOL_EXPORT int nlp_jac_g(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                                   casadi_real* w, int mem) {
  casadi_load(arg, w);
  if (res[0]) casadi_gval(w, res[0]);
  if (res[1]) {
    res[1][0] = w[1]; /* (0,0) */
    res[1][1] = 1;    /* (1,0) */
    res[1][2] = w[0]; /* (0,1) */
    res[1][3] = 1;    /* (1,1) */
    res[1][4] = -1;   /* (0,2) */
  }
  return 0;
}
CASADI_COMMON(nlp_jac_g, 2, 2, 5)
CASADI_SYMBOL_EXPORT const casadi_int* nlp_jac_g_sparsity_in(casadi_int i) {
  return nlp_f_sparsity_in(i);
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_jac_g_sparsity_out(casadi_int i) {
  switch (i) {
    case 0: return casadi_s_g;
    case 1: return casadi_s_jac;
    default: return 0;
  }
}
#endif

/* nlp_hess_l:(x[3],p[2],lam:f,lam:g[2])->(triu(hess:gamma:x:x)[3x3,4nz]) */
CASADI_SYMBOL_EXPORT int nlp_hess_l(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                                    casadi_real* w, int mem) {
  casadi_real lam_f = arg[2] ? arg[2][0] : 0;
  casadi_real lam_g0 = arg[3] ? arg[3][0] : 0;
  if (res[0]) {
    res[0][0] = 2 * lam_f; /* (0,0) */
    res[0][1] = lam_g0;    /* (0,1) */
    res[0][2] = 2 * lam_f; /* (1,1) */
    res[0][3] = 2 * lam_f; /* (2,2) */
  }
  return 0;
}
CASADI_COMMON(nlp_hess_l, 4, 1, 0)
CASADI_SYMBOL_EXPORT const casadi_int* nlp_hess_l_sparsity_in(casadi_int i) {
  switch (i) {
    case 0: return casadi_s_x;
    case 1: return casadi_s_p;
    case 2: return casadi_s_scalar;
    case 3: return casadi_s_g;
    default: return 0;
  }
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_hess_l_sparsity_out(casadi_int i) {
  return i == 0 ? casadi_s_hess : 0;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

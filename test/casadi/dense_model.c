/* A model written by hand in the form of CasADi 3.7's default generated code,
 * where every dense pattern takes the short form [nrow, ncol, 1]:
 *
 *   minimize    f = (x0 - 1)^2 + (x1 - 2)^2
 *   subject to  g0 = x0^2 + x1^2 - p0   (= 0 in the tests: a circle of radius sqrt(p0))
 *
 * Solution x = sqrt(p0) (1, 2) / sqrt(5), f = (sqrt(5) - sqrt(p0))^2,
 * lambda = sqrt(5 / p0) - 1. The Hessian is diagonal (sparse form).
 * It exports no checkout/release/incref/decref and no nlp_f_work, all
 * optional in CasADi's ABI. Built with QPM_TEST_NO_HESS it has no
 * nlp_hess_l (what generate_dependencies writes for a limited-memory solver). */
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

static const casadi_int casadi_s0[3] = {2, 1, 1}; /* x, grad f */
static const casadi_int casadi_s1[3] = {1, 1, 1}; /* p, f, g, lam_f, lam_g */
static const casadi_int casadi_s2[3] = {1, 2, 1}; /* jac g */
static const casadi_int casadi_s3[7] = {2, 2, 0, 1, 2, 0, 1}; /* diagonal Hessian */

static const casadi_int* casadi_sparsity_xp(casadi_int i) {
  switch (i) {
    case 0: return casadi_s0;
    case 1: return casadi_s1;
    default: return 0;
  }
}

static int casadi_work(casadi_int* sz_arg, casadi_int* sz_res, casadi_int* sz_iw,
                       casadi_int* sz_w, casadi_int n_in, casadi_int n_out) {
  if (sz_arg) *sz_arg = n_in;
  if (sz_res) *sz_res = n_out;
  if (sz_iw) *sz_iw = 0;
  if (sz_w) *sz_w = 0;
  return 0;
}

static casadi_real casadi_sq(casadi_real a) { return a * a; }

/* nlp_f:(x[2],p)->(f) */
CASADI_SYMBOL_EXPORT int nlp_f(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                               casadi_real* w, int mem) {
  const casadi_real* x = arg[0];
  if (res[0]) res[0][0] = casadi_sq(x[0] - 1) + casadi_sq(x[1] - 2);
  return 0;
}
CASADI_SYMBOL_EXPORT casadi_int nlp_f_n_in(void) { return 2; }
CASADI_SYMBOL_EXPORT casadi_int nlp_f_n_out(void) { return 1; }
CASADI_SYMBOL_EXPORT const casadi_int* nlp_f_sparsity_in(casadi_int i) {
  return casadi_sparsity_xp(i);
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_f_sparsity_out(casadi_int i) {
  return i == 0 ? casadi_s1 : 0;
}
/* No nlp_f_work: optional, it needs no work arrays. */

/* nlp_g:(x[2],p)->(g) */
CASADI_SYMBOL_EXPORT int nlp_g(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                               casadi_real* w, int mem) {
  const casadi_real* x = arg[0];
  casadi_real p0 = arg[1] ? arg[1][0] : 0;
  if (res[0]) res[0][0] = x[0] * x[0] + x[1] * x[1] - p0;
  return 0;
}
CASADI_SYMBOL_EXPORT casadi_int nlp_g_n_in(void) { return 2; }
CASADI_SYMBOL_EXPORT casadi_int nlp_g_n_out(void) { return 1; }
CASADI_SYMBOL_EXPORT const casadi_int* nlp_g_sparsity_in(casadi_int i) {
  return casadi_sparsity_xp(i);
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_g_sparsity_out(casadi_int i) {
  return i == 0 ? casadi_s1 : 0;
}
CASADI_SYMBOL_EXPORT int nlp_g_work(casadi_int* sz_arg, casadi_int* sz_res, casadi_int* sz_iw,
                                    casadi_int* sz_w) {
  return casadi_work(sz_arg, sz_res, sz_iw, sz_w, 2, 1);
}

/* nlp_grad_f:(x[2],p)->(f,grad:f:x[2]) */
CASADI_SYMBOL_EXPORT int nlp_grad_f(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                                    casadi_real* w, int mem) {
  const casadi_real* x = arg[0];
  if (res[0]) res[0][0] = casadi_sq(x[0] - 1) + casadi_sq(x[1] - 2);
  if (res[1]) {
    res[1][0] = 2 * (x[0] - 1);
    res[1][1] = 2 * (x[1] - 2);
  }
  return 0;
}
CASADI_SYMBOL_EXPORT casadi_int nlp_grad_f_n_in(void) { return 2; }
CASADI_SYMBOL_EXPORT casadi_int nlp_grad_f_n_out(void) { return 2; }
CASADI_SYMBOL_EXPORT const casadi_int* nlp_grad_f_sparsity_in(casadi_int i) {
  return casadi_sparsity_xp(i);
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_grad_f_sparsity_out(casadi_int i) {
  switch (i) {
    case 0: return casadi_s1;
    case 1: return casadi_s0;
    default: return 0;
  }
}
CASADI_SYMBOL_EXPORT int nlp_grad_f_work(casadi_int* sz_arg, casadi_int* sz_res,
                                         casadi_int* sz_iw, casadi_int* sz_w) {
  return casadi_work(sz_arg, sz_res, sz_iw, sz_w, 2, 2);
}

/* nlp_jac_g:(x[2],p)->(g,jac:g:x[1x2]) */
CASADI_SYMBOL_EXPORT int nlp_jac_g(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                                   casadi_real* w, int mem) {
  const casadi_real* x = arg[0];
  casadi_real p0 = arg[1] ? arg[1][0] : 0;
  if (res[0]) res[0][0] = x[0] * x[0] + x[1] * x[1] - p0;
  if (res[1]) {
    res[1][0] = 2 * x[0];
    res[1][1] = 2 * x[1];
  }
  return 0;
}
CASADI_SYMBOL_EXPORT casadi_int nlp_jac_g_n_in(void) { return 2; }
CASADI_SYMBOL_EXPORT casadi_int nlp_jac_g_n_out(void) { return 2; }
CASADI_SYMBOL_EXPORT const casadi_int* nlp_jac_g_sparsity_in(casadi_int i) {
  return casadi_sparsity_xp(i);
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_jac_g_sparsity_out(casadi_int i) {
  switch (i) {
    case 0: return casadi_s1;
    case 1: return casadi_s2;
    default: return 0;
  }
}
CASADI_SYMBOL_EXPORT int nlp_jac_g_work(casadi_int* sz_arg, casadi_int* sz_res,
                                        casadi_int* sz_iw, casadi_int* sz_w) {
  return casadi_work(sz_arg, sz_res, sz_iw, sz_w, 2, 2);
}

#ifndef QPM_TEST_NO_HESS
/* nlp_hess_l:(x[2],p,lam:f,lam:g)->(triu(hess:gamma:x:x)[2x2,2nz]) */
CASADI_SYMBOL_EXPORT int nlp_hess_l(const casadi_real** arg, casadi_real** res, casadi_int* iw,
                                    casadi_real* w, int mem) {
  casadi_real d = 2 * ((arg[2] ? arg[2][0] : 0) + (arg[3] ? arg[3][0] : 0));
  if (res[0]) res[0][0] = res[0][1] = d;
  return 0;
}
CASADI_SYMBOL_EXPORT casadi_int nlp_hess_l_n_in(void) { return 4; }
CASADI_SYMBOL_EXPORT casadi_int nlp_hess_l_n_out(void) { return 1; }
CASADI_SYMBOL_EXPORT const casadi_int* nlp_hess_l_sparsity_in(casadi_int i) {
  return i < 2 ? casadi_sparsity_xp(i) : (i < 4 ? casadi_s1 : 0);
}
CASADI_SYMBOL_EXPORT const casadi_int* nlp_hess_l_sparsity_out(casadi_int i) {
  return i == 0 ? casadi_s3 : 0;
}
CASADI_SYMBOL_EXPORT int nlp_hess_l_work(casadi_int* sz_arg, casadi_int* sz_res,
                                         casadi_int* sz_iw, casadi_int* sz_w) {
  return casadi_work(sz_arg, sz_res, sz_iw, sz_w, 4, 1);
}
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#define BOOST_TEST_MODULE casadi_codegen
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <IpIpoptApplication.hpp>

#include "qpm/casadi/codegen_tnlp.hpp"
#include "qpm/qpm.hpp"
#include "status_print.hpp"

using Ipopt::Index;
using Ipopt::IpoptApplication;
using Ipopt::SmartPtr;
using qpm::CasadiCodegenTnlp;
using qpm::CasadiInt;
using qpm::CasadiNlpInputs;
using qpm::CasadiSparsity;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

std::string Model(const std::string& name) {
  return std::string(QPM_CASADI_MODEL_DIR) + "/" + name + ".so";
}

// sparse_model.c: g0 = x0 x1 - x2 = 0, g1 = x0 + x1 <= 1.
CasadiNlpInputs SparseInputs(std::vector<double> p) {
  CasadiNlpInputs in;
  in.x0 = {0.3, 0.2, 0.1};
  in.p = std::move(p);
  in.lbg = {0.0, -kInf};
  in.ubg = {0.0, 1.0};
  return in;
}

// dense_model.c: x0^2 + x1^2 = p0.
CasadiNlpInputs DenseInputs(double p0) {
  CasadiNlpInputs in;
  in.x0 = {0.5, 0.5};
  in.p = {p0};
  in.lbg = {0.0};
  in.ubg = {0.0};
  return in;
}

SmartPtr<IpoptApplication> Configure(SmartPtr<IpoptApplication> app, double tol,
                                     bool limited_memory = false) {
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetNumericValue("tol", tol);
  if (limited_memory) app->Options()->SetStringValue("hessian_approximation", "limited-memory");
  BOOST_REQUIRE(app->Initialize("") == Ipopt::Solve_Succeeded);
  return app;
}

SmartPtr<IpoptApplication> QpmApp(bool limited_memory = false) {
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  if (!limited_memory) app->Options()->SetStringValue("qpm_inner_solver", "trust-region");
  return Configure(app, 1e-7, limited_memory);
}

SmartPtr<IpoptApplication> IpoptApp(bool limited_memory = false) {
  return Configure(IpoptApplicationFactory(), 1e-10, limited_memory);
}

Ipopt::ApplicationReturnStatus Solve(const SmartPtr<IpoptApplication>& app,
                                     CasadiCodegenTnlp* tnlp) {
  return app->OptimizeTNLP(tnlp);
}

void CheckClose(const std::vector<double>& a, const std::vector<double>& b, double tol) {
  BOOST_REQUIRE_EQUAL(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) BOOST_TEST(std::abs(a[i] - b[i]) <= tol);
}

// Dense symmetric Hessian of the Lagrangian assembled from the TNLP's triplets.
std::vector<double> DenseHessian(Ipopt::TNLP& t, const std::vector<double>& x, double obj_factor,
                                 const std::vector<double>& lambda) {
  Index n, m, nnz_j, nnz_h;
  Ipopt::TNLP::IndexStyleEnum style;
  t.get_nlp_info(n, m, nnz_j, nnz_h, style);
  std::vector<Index> ir(nnz_h), jc(nnz_h);
  std::vector<double> v(nnz_h), h(n * n, 0.0);
  BOOST_REQUIRE(t.eval_h(n, x.data(), true, obj_factor, m, lambda.data(), true, nnz_h, ir.data(),
                         jc.data(), nullptr));
  BOOST_REQUIRE(t.eval_h(n, x.data(), true, obj_factor, m, lambda.data(), true, nnz_h, nullptr,
                         nullptr, v.data()));
  for (Index k = 0; k < nnz_h; ++k) {
    BOOST_TEST(ir[k] >= jc[k]);  // one triangle: Ipopt's lower
    h[ir[k] * n + jc[k]] += v[k];
    if (ir[k] != jc[k]) h[jc[k] * n + ir[k]] += v[k];
  }
  return h;
}

// grad_x (obj_factor f + lambda' g), from eval_grad_f and eval_jac_g.
std::vector<double> LagrangianGradient(Ipopt::TNLP& t, const std::vector<double>& x,
                                       double obj_factor, const std::vector<double>& lambda) {
  Index n, m, nnz_j, nnz_h;
  Ipopt::TNLP::IndexStyleEnum style;
  t.get_nlp_info(n, m, nnz_j, nnz_h, style);
  std::vector<double> grad(n);
  std::vector<Index> ir(nnz_j), jc(nnz_j);
  std::vector<double> v(nnz_j);
  BOOST_REQUIRE(t.eval_grad_f(n, x.data(), true, grad.data()));
  BOOST_REQUIRE(t.eval_jac_g(n, x.data(), true, m, nnz_j, ir.data(), jc.data(), nullptr));
  BOOST_REQUIRE(t.eval_jac_g(n, x.data(), true, m, nnz_j, nullptr, nullptr, v.data()));
  for (double& gi : grad) gi *= obj_factor;
  for (Index k = 0; k < nnz_j; ++k) grad[jc[k]] += lambda[ir[k]] * v[k];
  return grad;
}

// Central differences of f, g and the Lagrangian gradient against the
// model's gradient, Jacobian and Hessian at x.
void CheckDerivativesByFiniteDifferences(Ipopt::TNLP& t, const std::vector<double>& x) {
  Index n, m, nnz_j, nnz_h;
  Ipopt::TNLP::IndexStyleEnum style;
  t.get_nlp_info(n, m, nnz_j, nnz_h, style);
  const double h = 1e-6, obj_factor = 0.7;
  std::vector<double> lambda(m);
  for (Index i = 0; i < m; ++i) lambda[i] = 0.3 + 0.5 * i;
  std::vector<double> e_i = std::vector<double>(m, 0.0);
  const std::vector<double> grad = LagrangianGradient(t, x, 1.0, std::vector<double>(m, 0.0));
  const std::vector<double> hess = DenseHessian(t, x, obj_factor, lambda);
  for (Index j = 0; j < n; ++j) {
    std::vector<double> xp = x, xm = x;
    xp[j] += h;
    xm[j] -= h;
    double fp, fm;
    BOOST_REQUIRE(t.eval_f(n, xp.data(), true, fp));
    BOOST_REQUIRE(t.eval_f(n, xm.data(), true, fm));
    BOOST_TEST(std::abs((fp - fm) / (2 * h) - grad[j]) <= 1e-6);
    std::vector<double> gp(m), gm(m);
    BOOST_REQUIRE(t.eval_g(n, xp.data(), true, m, gp.data()));
    BOOST_REQUIRE(t.eval_g(n, xm.data(), true, m, gm.data()));
    for (Index i = 0; i < m; ++i) {  // column j of J through J^T e_i
      e_i.assign(m, 0.0);
      e_i[i] = 1.0;
      const double jij = LagrangianGradient(t, x, 0.0, e_i)[j];
      BOOST_TEST(std::abs((gp[i] - gm[i]) / (2 * h) - jij) <= 1e-6);
    }
    const std::vector<double> lp = LagrangianGradient(t, xp, obj_factor, lambda);
    const std::vector<double> lm = LagrangianGradient(t, xm, obj_factor, lambda);
    for (Index i = 0; i < n; ++i) {
      BOOST_TEST(std::abs((lp[i] - lm[i]) / (2 * h) - hess[i * n + j]) <= 1e-6);
    }
  }
}

template <class Fn>
std::string ErrorOf(Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

// ------------------------------------------------------------- sparsity

BOOST_AUTO_TEST_CASE(ParsesCompressedColumnSparsity) {
  const CasadiInt sp[] = {2, 3, 0, 2, 4, 5, 0, 1, 0, 1, 0};
  const CasadiSparsity s = CasadiSparsity::FromCasadi(sp);
  BOOST_TEST(s.nrow == 2);
  BOOST_TEST(s.ncol == 3);
  BOOST_TEST(s.nnz() == 5);
  BOOST_TEST(!s.IsDense());
  BOOST_TEST(s.row == std::vector<Index>({0, 1, 0, 1, 0}), boost::test_tools::per_element());
  BOOST_TEST(s.Columns() == std::vector<Index>({0, 0, 1, 1, 2}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ExpandsTheDenseShortForm) {
  const CasadiInt sp[] = {2, 3, 1};
  const CasadiSparsity s = CasadiSparsity::FromCasadi(sp);
  BOOST_TEST(s.nnz() == 6);
  BOOST_TEST(s.IsDense());
  BOOST_TEST(s.colind == std::vector<Index>({0, 2, 4, 6}), boost::test_tools::per_element());
  BOOST_TEST(s.row == std::vector<Index>({0, 1, 0, 1, 0, 1}), boost::test_tools::per_element());
  const CasadiInt empty[] = {0, 0, 1};  // e.g. a model without parameters
  BOOST_TEST(CasadiSparsity::FromCasadi(empty).nnz() == 0);
  const CasadiInt empty_column[] = {0, 1, 1};
  BOOST_TEST(CasadiSparsity::FromCasadi(empty_column).nnz() == 0);
}

BOOST_AUTO_TEST_CASE(TellsAnUpperTriangleFromALowerOne) {
  const CasadiInt upper[] = {3, 3, 0, 1, 3, 4, 0, 0, 1, 2};
  const CasadiInt lower[] = {2, 2, 0, 2, 3, 0, 1, 1};
  BOOST_TEST(CasadiSparsity::FromCasadi(upper).IsUpperTriangular());
  BOOST_TEST(!CasadiSparsity::FromCasadi(lower).IsUpperTriangular());
}

BOOST_AUTO_TEST_CASE(RejectsMalformedSparsity) {
  const CasadiInt bad_row[] = {2, 1, 0, 1, 5};
  const CasadiInt bad_start[] = {2, 1, 2, 2};
  const CasadiInt decreasing[] = {2, 2, 0, 2, 1, 0, 1};
  BOOST_CHECK_THROW(CasadiSparsity::FromCasadi(nullptr), std::invalid_argument);
  BOOST_CHECK_THROW(CasadiSparsity::FromCasadi(bad_row), std::invalid_argument);
  BOOST_CHECK_THROW(CasadiSparsity::FromCasadi(bad_start), std::invalid_argument);
  BOOST_CHECK_THROW(CasadiSparsity::FromCasadi(decreasing), std::invalid_argument);
}

// ---------------------------------------------------------- the adapter

BOOST_AUTO_TEST_CASE(ReadsSizesAndConvertsPatternsToIpoptTriplets) {
  CasadiCodegenTnlp t(Model("sparse_model"), SparseInputs({0.0, 0.0}));
  BOOST_TEST(t.nx() == 3);
  BOOST_TEST(t.ng() == 2);
  BOOST_TEST(t.np() == 2);
  BOOST_TEST(t.HasHessian());
  Index n, m, nnz_j, nnz_h;
  Ipopt::TNLP::IndexStyleEnum style;
  BOOST_REQUIRE(t.get_nlp_info(n, m, nnz_j, nnz_h, style));
  BOOST_TEST(nnz_j == 5);
  BOOST_TEST(nnz_h == 4);
  BOOST_TEST(style == Ipopt::TNLP::C_STYLE);
  std::vector<Index> ir(5), jc(5);
  BOOST_REQUIRE(t.eval_jac_g(n, nullptr, true, m, nnz_j, ir.data(), jc.data(), nullptr));
  BOOST_TEST(ir == std::vector<Index>({0, 1, 0, 1, 0}), boost::test_tools::per_element());
  BOOST_TEST(jc == std::vector<Index>({0, 0, 1, 1, 2}), boost::test_tools::per_element());
  ir.resize(4);
  jc.resize(4);
  BOOST_REQUIRE(t.eval_h(n, nullptr, true, 1.0, m, nullptr, true, nnz_h, ir.data(), jc.data(),
                         nullptr));
  // CasADi's upper (0,0) (0,1) (1,1) (2,2) transposed into Ipopt's lower.
  BOOST_TEST(ir == std::vector<Index>({0, 1, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(jc == std::vector<Index>({0, 0, 1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(EvaluatesTheSparseModelAsComputedByHand) {
  CasadiCodegenTnlp t(Model("sparse_model"), SparseInputs({0.5, -1.0}));
  const std::vector<double> x = {1.0, 2.0, 3.0};
  double f = 0.0;
  std::vector<double> grad(3), g(2), jac(5), hess(4);
  BOOST_REQUIRE(t.eval_f(3, x.data(), true, f));
  BOOST_TEST(f == 0.25 + 9.0 + 9.0);  // (1 - 0.5)^2 + (2 + 1)^2 + 3^2
  BOOST_REQUIRE(t.eval_grad_f(3, x.data(), true, grad.data()));
  CheckClose(grad, {1.0, 6.0, 6.0}, 0.0);
  BOOST_REQUIRE(t.eval_g(3, x.data(), true, 2, g.data()));
  CheckClose(g, {2.0 - 3.0, 3.0}, 0.0);
  BOOST_REQUIRE(t.eval_jac_g(3, x.data(), true, 2, 5, nullptr, nullptr, jac.data()));
  CheckClose(jac, {2.0, 1.0, 1.0, 1.0, -1.0}, 0.0);  // d/dx0 (g0, g1), d/dx1 ..., d/dx2 g0
  const std::vector<double> lambda = {3.0, 4.0};
  BOOST_REQUIRE(t.eval_h(3, x.data(), true, 0.5, 2, lambda.data(), true, 4, nullptr, nullptr,
                         hess.data()));
  CheckClose(hess, {1.0, 3.0, 1.0, 1.0}, 0.0);  // 2 obj_factor on the diagonal, lambda0 off it
}

BOOST_AUTO_TEST_CASE(DerivativesMatchFiniteDifferences) {
  CasadiCodegenTnlp sparse(Model("sparse_model"), SparseInputs({0.5, -1.0}));
  CheckDerivativesByFiniteDifferences(sparse, {0.7, -1.3, 0.4});
  CasadiCodegenTnlp dense(Model("dense_model"), DenseInputs(2.0));
  CheckDerivativesByFiniteDifferences(dense, {0.7, -1.3});
}

BOOST_AUTO_TEST_CASE(FillsCasadiDefaultsAndClampsInfiniteBoundsForIpopt) {
  CasadiCodegenTnlp t(Model("sparse_model"));
  BOOST_TEST(t.Inputs().p == std::vector<double>({0.0, 0.0}), boost::test_tools::per_element());
  BOOST_TEST(t.Inputs().x0 == std::vector<double>(3, 0.0), boost::test_tools::per_element());
  std::vector<double> xl(3), xu(3), gl(2), gu(2);
  BOOST_REQUIRE(t.get_bounds_info(3, xl.data(), xu.data(), 2, gl.data(), gu.data()));
  CheckClose(xl, std::vector<double>(3, -1e19), 0.0);
  CheckClose(gu, std::vector<double>(2, 1e19), 0.0);
  CasadiNlpInputs in = SparseInputs({1.0, 2.0});
  in.lbx = {-1.0, -kInf, 0.0};
  t.SetInputs(in);
  BOOST_REQUIRE(t.get_bounds_info(3, xl.data(), xu.data(), 2, gl.data(), gu.data()));
  CheckClose(xl, {-1.0, -1e19, 0.0}, 0.0);
  CheckClose(gl, {0.0, -1e19}, 0.0);
  CheckClose(gu, {0.0, 1.0}, 0.0);
  std::vector<double> x0(3);
  BOOST_REQUIRE(t.get_starting_point(3, true, x0.data(), false, nullptr, nullptr, 2, false,
                                     nullptr));
  CheckClose(x0, in.x0, 0.0);
}

BOOST_AUTO_TEST_CASE(RejectsInputsOfTheWrongSize) {
  CasadiCodegenTnlp t(Model("sparse_model"), SparseInputs({1.0, 2.0}));
  BOOST_CHECK_THROW(t.SetParameters({1.0}), std::invalid_argument);
  BOOST_CHECK_THROW(t.SetStartPoint({1.0, 2.0}), std::invalid_argument);
  BOOST_TEST(t.Inputs().p == std::vector<double>({1.0, 2.0}), boost::test_tools::per_element());
  CasadiNlpInputs in;
  in.ubg = {1.0, 2.0, 3.0};
  BOOST_CHECK_THROW(t.SetInputs(in), std::invalid_argument);
}

// ------------------------------------------------------------- solving

// p = (0, 0): x* = 0 with g1 inactive. p = (2, 2): g1 = x0 + x1 <= 1 is
// active, x* = (1/2, 1/2, 1/4), f* = 2 (3/2)^2 + 1/16, lambda = (1/2, 11/4).
BOOST_AUTO_TEST_CASE(QpmAndIpoptSolveTheSparseModelAndFollowItsParameters) {
  for (bool use_qpm : {true, false}) {
    BOOST_TEST_CONTEXT((use_qpm ? "QPM" : "Ipopt")) {
      const double tol = use_qpm ? 1e-5 : 1e-7;
      SmartPtr<CasadiCodegenTnlp> t =
          new CasadiCodegenTnlp(Model("sparse_model"), SparseInputs({0.0, 0.0}));
      SmartPtr<IpoptApplication> app = use_qpm ? QpmApp() : IpoptApp();
      BOOST_TEST(Solve(app, GetRawPtr(t)) == Ipopt::Solve_Succeeded);
      BOOST_TEST(std::abs(t->Result().f) <= tol);
      CheckClose(t->Result().x, {0.0, 0.0, 0.0}, tol);

      t->SetParameters({2.0, 2.0});
      BOOST_TEST(Solve(app, GetRawPtr(t)) == Ipopt::Solve_Succeeded);
      BOOST_TEST(std::abs(t->Result().f - 4.5625) <= tol);
      CheckClose(t->Result().x, {0.5, 0.5, 0.25}, tol);
      CheckClose(t->Result().lam_g, {0.5, 2.75}, 10 * tol);
      CheckClose(t->Result().g, {0.0, 1.0}, tol);
    }
  }
}

// A variable bound: with x1 <= 0.25 at p = (2, 2), x0 + x1 <= 1 and the
// objective push x1 onto its bound; lam_x[1] = z_U - z_L > 0 there.
BOOST_AUTO_TEST_CASE(QpmAndIpoptAgreeWithAnActiveVariableBound) {
  CasadiNlpInputs in = SparseInputs({2.0, 2.0});
  in.ubx = {kInf, 0.25, kInf};
  SmartPtr<CasadiCodegenTnlp> a = new CasadiCodegenTnlp(Model("sparse_model"), in);
  SmartPtr<CasadiCodegenTnlp> b = new CasadiCodegenTnlp(Model("sparse_model"), in);
  BOOST_TEST(Solve(IpoptApp(), GetRawPtr(a)) == Ipopt::Solve_Succeeded);
  BOOST_TEST(Solve(QpmApp(), GetRawPtr(b)) == Ipopt::Solve_Succeeded);
  BOOST_TEST(std::abs(a->Result().x[1] - 0.25) <= 1e-7);
  BOOST_TEST(a->Result().lam_x[1] > 0.0);
  BOOST_TEST(std::abs(a->Result().f - b->Result().f) <= 1e-5);
  CheckClose(a->Result().x, b->Result().x, 1e-5);
  BOOST_TEST(std::abs(a->Result().lam_x[1] - b->Result().lam_x[1]) <= 1e-4);
}

// x* = sqrt(p0) (1, 2) / sqrt(5), f* = (sqrt(5) - sqrt(p0))^2,
// lambda = sqrt(5 / p0) - 1, for p0 = 1 and p0 = 4.
BOOST_AUTO_TEST_CASE(QpmAndIpoptSolveTheDenseModelOnTheCircleOfRadiusSqrtP) {
  for (bool use_qpm : {true, false}) {
    for (double p0 : {1.0, 4.0}) {
      BOOST_TEST_CONTEXT((use_qpm ? "QPM" : "Ipopt") << ", p0 = " << p0) {
        const double tol = use_qpm ? 1e-5 : 1e-7, r = std::sqrt(p0), s5 = std::sqrt(5.0);
        SmartPtr<CasadiCodegenTnlp> t =
            new CasadiCodegenTnlp(Model("dense_model"), DenseInputs(p0));
        BOOST_TEST(Solve(use_qpm ? QpmApp() : IpoptApp(), GetRawPtr(t)) == Ipopt::Solve_Succeeded);
        BOOST_TEST(std::abs(t->Result().f - (s5 - r) * (s5 - r)) <= tol);
        CheckClose(t->Result().x, {r / s5, 2 * r / s5}, tol);
        CheckClose(t->Result().lam_g, {s5 / r - 1.0}, 10 * tol);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(WithoutHessLSolvesWithLimitedMemory) {
  for (bool use_qpm : {true, false}) {
    BOOST_TEST_CONTEXT((use_qpm ? "QPM" : "Ipopt")) {
      SmartPtr<CasadiCodegenTnlp> t =
          new CasadiCodegenTnlp(Model("dense_model_no_hess"), DenseInputs(1.0));
      BOOST_TEST(!t->HasHessian());
      BOOST_TEST(t->HessianSparsity().nnz() == 0);
      BOOST_TEST(Solve(use_qpm ? QpmApp(true) : IpoptApp(true), GetRawPtr(t)) == Ipopt::Solve_Succeeded);
      CheckClose(t->Result().x, {1.0 / std::sqrt(5.0), 2.0 / std::sqrt(5.0)}, 1e-5);
    }
  }
}

// ----------------------------------------------------- loading, errors

BOOST_AUTO_TEST_CASE(ChecksOutMemoryAndCountsReferencesUntilDestroyed) {
  // A second handle keeps the library loaded so that its counters survive.
  void* handle = dlopen(Model("sparse_model").c_str(), RTLD_NOW | RTLD_LOCAL);
  BOOST_REQUIRE(handle != nullptr);
  auto refcount = reinterpret_cast<int (*)()>(dlsym(handle, "sparse_model_refcount"));
  auto checked_out = reinterpret_cast<int (*)()>(dlsym(handle, "sparse_model_checked_out"));
  BOOST_REQUIRE(refcount != nullptr);
  BOOST_REQUIRE(checked_out != nullptr);
  {
    CasadiCodegenTnlp t(Model("sparse_model"));
    BOOST_TEST(refcount() == 5);     // incref once per function
    BOOST_TEST(checked_out() == 5);  // one memory slot per function
  }
  BOOST_TEST(refcount() == 0);
  BOOST_TEST(checked_out() == 0);
  dlclose(handle);
}

BOOST_AUTO_TEST_CASE(AMissingLibraryFailsAtConstructionNamingThePath) {
  const std::string path = Model("no_such_model");
  const std::string what = ErrorOf([&] { CasadiCodegenTnlp t(path); });
  BOOST_TEST(Contains(what, "cannot open"));
  BOOST_TEST(Contains(what, path));
}

BOOST_AUTO_TEST_CASE(AMissingSymbolFailsAtConstructionNamingIt) {
  const std::string what = ErrorOf([] { CasadiCodegenTnlp t(Model("sparse_model_no_jac_g")); });
  BOOST_TEST(Contains(what, "'nlp_jac_g' not found"));
  BOOST_TEST(Contains(what, "sparse_model_no_jac_g.so"));
  const std::string prefix = ErrorOf([] { CasadiCodegenTnlp t(Model("sparse_model"), {}, "my_"); });
  BOOST_TEST(Contains(prefix, "'my_f' not found"));
}

BOOST_AUTO_TEST_CASE(InconsistentSizesFailAtConstruction) {
  const std::string what = ErrorOf([] { CasadiCodegenTnlp t(Model("sparse_model_wrong_jac")); });
  BOOST_TEST(Contains(what, "nlp_jac_g"));
  BOOST_TEST(Contains(what, "is 3x3, expected 2x3"));
}

#ifdef QPM_CASADI_GENERATED_MODEL
// generated_model.so is CasADi 3.7's own generate_dependencies output for the
// model of sparse_model.c (test/casadi/generate_nlp.cpp, run at build time):
// the same patterns, the same values, the same solution.
BOOST_AUTO_TEST_CASE(LoadsRealCasadiGeneratedCodeLikeTheHandWrittenModel) {
  CasadiCodegenTnlp real(Model("generated_model"), SparseInputs({0.5, -1.0}));
  CasadiCodegenTnlp hand(Model("sparse_model"), SparseInputs({0.5, -1.0}));
  BOOST_TEST(real.nx() == 3);
  BOOST_TEST(real.ng() == 2);
  BOOST_TEST(real.np() == 2);
  BOOST_TEST(real.JacobianSparsity().row == hand.JacobianSparsity().row,
             boost::test_tools::per_element());
  BOOST_TEST(real.JacobianSparsity().colind == hand.JacobianSparsity().colind,
             boost::test_tools::per_element());
  BOOST_TEST(real.HessianSparsity().row == hand.HessianSparsity().row,
             boost::test_tools::per_element());
  BOOST_TEST(real.HessianSparsity().colind == hand.HessianSparsity().colind,
             boost::test_tools::per_element());
  const std::vector<double> x = {0.7, -1.3, 0.4}, lambda = {3.0, 4.0};
  CheckClose(DenseHessian(real, x, 0.5, lambda), DenseHessian(hand, x, 0.5, lambda), 1e-14);
  CheckClose(LagrangianGradient(real, x, 0.5, lambda), LagrangianGradient(hand, x, 0.5, lambda),
             1e-14);
  CheckDerivativesByFiniteDifferences(real, x);

  SmartPtr<CasadiCodegenTnlp> t =
      new CasadiCodegenTnlp(Model("generated_model"), SparseInputs({2.0, 2.0}));
  BOOST_TEST(Solve(QpmApp(), GetRawPtr(t)) == Ipopt::Solve_Succeeded);
  CheckClose(t->Result().x, {0.5, 0.5, 0.25}, 1e-5);
  BOOST_TEST(std::abs(t->Result().f - 4.5625) <= 1e-5);
}
#endif

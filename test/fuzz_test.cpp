#define BOOST_TEST_MODULE fuzz
#include <boost/test/unit_test.hpp>

// Thousands of malformed TNLPs from fixed seeds: false returns, NaN/Inf and
// throws at random value calls, wrong structures and counts, bad bounds and
// sizes. Each must end without a crash or hang, with the status its fault
// calls for, finalize_solution called as Ipopt would, and a success status
// only at a point that really is a KKT point.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include <IpException.hpp>

#include "qpm/qpm.hpp"

using Ipopt::Index;
using Ipopt::Number;
using Ipopt::SmartPtr;
using Ipopt::TNLP;

namespace {

enum class Fault {
  kNone,
  // At one value call of one callback:
  kReturnFalse, kNaN, kInf, kThrowStd, kThrowIpopt,
  // In the definition:
  kIndexOutOfRange, kCountTooLarge, kCountTooSmall, kStructureFalse, kThrowInStructure,
  kCrossedVariableBounds, kCrossedRowBounds, kNaNBound, kNegativeSize, kInfoFalse,
  kBoundsFalse, kStartFalse, kNaNStart,
  kCount
};

const char* FaultName(Fault f) {
  static const char* names[] = {
      "none", "return false", "NaN", "Inf", "throw std::exception", "throw IpoptException",
      "index out of range", "nnz too large", "nnz too small", "structure call false",
      "throw in structure call", "x_l > x_u", "g_l > g_u", "NaN bound", "negative size",
      "get_nlp_info false", "get_bounds_info false", "get_starting_point false", "NaN in x0"};
  return names[static_cast<int>(f)];
}

enum Callback { kF, kG, kGrad, kJac, kH, kCallbacks };

struct Case {
  Fault fault = Fault::kNone;
  Callback callback = kF;  // value-call faults: which callback, at which call
  long call = 1;
  bool on_hessian = false;  // structure faults: Hessian instead of Jacobian
  int index = 0;            // which variable / row / entry
  bool fortran = false;
  bool upper = false;       // Hessian given as its upper triangle
  std::string inner;
};

DECLARE_STD_EXCEPTION(FUZZ_MODEL_ERROR);

// n = 3, m = 2: min (x0-1)^2 + (x1-2)^2 + (x2+1/2)^2 + x0 x1 / 2
// s.t. x0^2 + x1^2 + x2^2 = 4, x0 + x1 - x2 <= 1, -5 <= x0 <= 5, x2 >= -1.
class FuzzTnlp : public TNLP {
 public:
  explicit FuzzTnlp(Case c) : c_(std::move(c)) {}

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    if (c_.fault == Fault::kInfoFalse) return false;
    if (c_.fault == Fault::kThrowInStructure) throw std::runtime_error("get_nlp_info broke");
    n = 3, m = 2, nnz_jac = 6, nnz_h = 6;
    style = c_.fortran ? FORTRAN_STYLE : C_STYLE;
    const Index delta = c_.fault == Fault::kCountTooLarge ? 1 + c_.index % 3
                        : c_.fault == Fault::kCountTooSmall ? -(1 + c_.index % 3) : 0;
    (c_.on_hessian ? nnz_h : nnz_jac) += delta;
    if (c_.fault == Fault::kNegativeSize) (c_.index % 2 ? m : n) = -1 - c_.index % 5;
    return true;
  }
  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index, Number* g_l, Number* g_u) override {
    if (c_.fault == Fault::kBoundsFalse) return false;
    x_l[0] = -5, x_u[0] = 5, x_l[1] = -1e19, x_u[1] = 1e19, x_l[2] = -1, x_u[2] = 1e19;
    g_l[0] = g_u[0] = 4.0;
    g_l[1] = -1e19, g_u[1] = 1.0;
    if (c_.fault == Fault::kCrossedVariableBounds) x_l[c_.index % 3] = x_u[c_.index % 3] = 0, x_l[c_.index % 3] = 1;
    if (c_.fault == Fault::kCrossedRowBounds) g_l[c_.index % 2] = 2, g_u[c_.index % 2] = 1;
    if (c_.fault == Fault::kNaNBound) (c_.index % 2 ? g_u[c_.index % 2] : x_l[c_.index % 3]) = NAN;
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool, Number*) override {
    if (c_.fault == Fault::kStartFalse) return false;
    x[0] = 0.5, x[1] = 0.5, x[2] = 0.5;
    if (c_.fault == Fault::kNaNStart) x[c_.index % 3] = NAN;
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = Sq(x[0] - 1) + Sq(x[1] - 2) + Sq(x[2] + 0.5) + 0.5 * x[0] * x[1];
    return Inject(kF, &f, 1);
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* g) override {
    g[0] = 2 * (x[0] - 1) + 0.5 * x[1], g[1] = 2 * (x[1] - 2) + 0.5 * x[0], g[2] = 2 * (x[2] + 0.5);
    return Inject(kGrad, g, 3);
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    g[0] = Sq(x[0]) + Sq(x[1]) + Sq(x[2]), g[1] = x[0] + x[1] - x[2];
    return Inject(kG, g, 2);
  }
  bool eval_jac_g(Index, const Number* x, bool, Index, Index nele, Index* row, Index* col,
                  Number* v) override {
    if (!v) return JacobianStructure(nele, row, col);
    v[0] = 2 * x[0], v[1] = 2 * x[1], v[2] = 2 * x[2], v[3] = 1, v[4] = 1, v[5] = -1;
    return Inject(kJac, v, 6);
  }
  bool eval_h(Index, const Number*, bool, Number sigma, Index, const Number* lambda, bool,
              Index nele, Index* row, Index* col, Number* v) override {
    if (!v) return HessianStructure(nele, row, col);
    const double d = 2 * sigma + 2 * lambda[0];
    // Lower triangle by rows: (0,0) (1,0) (1,1) (2,0) (2,1) (2,2).
    v[0] = d, v[1] = 0.5 * sigma, v[2] = d, v[3] = 0, v[4] = 0, v[5] = d;
    return Inject(kH, v, 6);
  }
  void finalize_solution(Ipopt::SolverReturn, Index n, const Number* x, const Number* z_L,
                         const Number* z_U, Index m, const Number*, const Number* lambda,
                         Number obj, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    ++finalize_calls;
    x_final.assign(x, x + n), z_L_final.assign(z_L, z_L + n), z_U_final.assign(z_U, z_U + n);
    lambda_final.assign(lambda, lambda + m);
    f_final = obj;
  }

  int finalize_calls = 0;
  long calls[kCallbacks] = {0, 0, 0, 0, 0};
  std::vector<double> x_final, z_L_final, z_U_final, lambda_final;
  double f_final = 0.0;

 private:
  static double Sq(double v) { return v * v; }

  // Applies a value-call fault when this is the faulty call.
  bool Inject(Callback which, Number* out, int size) {
    if (++calls[which] != c_.call || which != c_.callback) return true;
    switch (c_.fault) {
      case Fault::kReturnFalse: return false;
      case Fault::kNaN: out[c_.index % size] = NAN; return true;
      case Fault::kInf: out[c_.index % size] = c_.index % 2 ? INFINITY : -INFINITY; return true;
      case Fault::kThrowStd: throw std::runtime_error("model failure");
      case Fault::kThrowIpopt: THROW_EXCEPTION(FUZZ_MODEL_ERROR, "model failure");
      default: return true;
    }
  }
  bool Faulty(bool hessian) const { return c_.on_hessian == hessian; }
  bool JacobianStructure(Index nele, Index* row, Index* col) {
    if (c_.fault == Fault::kStructureFalse && Faulty(false)) return false;
    const Index o = c_.fortran ? 1 : 0;
    const int count = std::min<Index>(nele, 6);  // a careful model writes what it declared...
    const int wanted = c_.fault == Fault::kCountTooSmall && Faulty(false) ? 6 : count;  // ...a careless one its own
    for (int k = 0; k < wanted; ++k) row[k] = k / 3 + o, col[k] = k % 3 + o;
    if (c_.fault == Fault::kIndexOutOfRange && Faulty(false)) {
      (c_.index % 2 ? row : col)[c_.index % 6] = c_.index % 4 ? 7 + o : o - 1;
    }
    return true;
  }
  bool HessianStructure(Index nele, Index* row, Index* col) {
    if (c_.fault == Fault::kStructureFalse && Faulty(true)) return false;
    static const Index r[] = {0, 1, 1, 2, 2, 2}, cl[] = {0, 0, 1, 0, 1, 2};
    const Index o = c_.fortran ? 1 : 0;
    const int count = std::min<Index>(nele, 6);
    const int wanted = c_.fault == Fault::kCountTooSmall && Faulty(true) ? 6 : count;
    for (int k = 0; k < wanted; ++k) {
      row[k] = (c_.upper ? cl[k] : r[k]) + o, col[k] = (c_.upper ? r[k] : cl[k]) + o;
    }
    if (c_.fault == Fault::kIndexOutOfRange && Faulty(true)) {
      (c_.index % 2 ? row : col)[c_.index % 6] = c_.index % 4 ? 3 + o : o - 1;
    }
    return true;
  }

  Case c_;
};

struct Outcome {
  Ipopt::ApplicationReturnStatus status;
  int finalize_calls;
  double seconds;
  double violation;  // of the final point, when finalized
  double kkt;        // KKT residual of the final point and multipliers
  double tol;        // the tol option of the run
  std::array<long, kCallbacks> calls;  // value calls made, per callback
};

// First order needs far more steps for the same accuracy.
double Tolerance(const std::string& inner) { return inner == "gradient-descent" ? 1e-4 : 1e-6; }

Outcome Run(const Case& c) {
  SmartPtr<FuzzTnlp> tnlp = new FuzzTnlp(c);
  SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetNumericValue("tol", Tolerance(c.inner));
  app->Options()->SetIntegerValue("max_iter", 20000);
  app->Options()->SetNumericValue("qpm_max_wall_time", 10.0);  // a hang becomes a status
  app->Options()->SetStringValue("qpm_inner_solver", c.inner);
  if (c.inner == "gradient-descent") app->Options()->SetStringValue("qpm_gd_trial_step", "barzilai-borwein");
  app->Initialize("");
  const auto start = std::chrono::steady_clock::now();
  Outcome o{app->OptimizeTNLP(SmartPtr<TNLP>(GetRawPtr(tnlp))), tnlp->finalize_calls, 0.0, 0.0, 0.0,
            Tolerance(c.inner), {}};
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::copy(tnlp->calls, tnlp->calls + kCallbacks, o.calls.begin());
  if (tnlp->finalize_calls == 1 && o.status == Ipopt::Solve_Succeeded) {
    const auto& x = tnlp->x_final;
    o.violation = std::max({std::abs(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] - 4.0),
                            std::max(0.0, x[0] + x[1] - x[2] - 1.0), std::max(0.0, -1.0 - x[2]),
                            std::abs(x[0]) - 5.0});
    FuzzTnlp clean{Case{}};
    qpm::Vector xv = Eigen::Map<const qpm::Vector>(x.data(), 3);
    o.kkt = qpm::KktResidual(clean, xv, Eigen::Map<const qpm::Vector>(tnlp->lambda_final.data(), 2),
                             Eigen::Map<const qpm::Vector>(tnlp->z_L_final.data(), 3),
                             Eigen::Map<const qpm::Vector>(tnlp->z_U_final.data(), 3));
  }
  return o;
}

Case Draw(std::mt19937& rng, const std::map<std::string, std::array<long, kCallbacks>>& clean) {
  static const char* inners[] = {"gradient-descent", "trust-region", "lbfgs"};
  Case c;
  c.inner = inners[rng() % 3];
  c.fault = static_cast<Fault>(rng() % static_cast<unsigned>(Fault::kCount));
  c.fortran = rng() % 2;
  c.upper = rng() % 2;
  c.on_hessian = rng() % 2;
  c.index = static_cast<int>(rng() % 1000);
  // A value-call fault hits a call the clean run makes (the run is the same up to it).
  c.callback = static_cast<Callback>(rng() % kCallbacks);
  const long made = clean.at(c.inner)[c.callback];
  c.call = made > 0 ? 1 + static_cast<long>(rng() % made) : 1;
  if (rng() % 4 == 0) c.call = 1;  // the start point, often
  return c;
}

bool IsValueFault(Fault f) { return f >= Fault::kReturnFalse && f <= Fault::kThrowIpopt; }

// What the fault calls for. Empty set: any clean stop after a solve.
std::set<Ipopt::ApplicationReturnStatus> Expected(const Case& c, long clean_calls) {
  using namespace Ipopt;
  const bool tr = c.inner == "trust-region";
  const bool fault_happens = !IsValueFault(c.fault) || clean_calls > 0;
  switch (c.fault) {
    case Fault::kNone: return {Solve_Succeeded};
    case Fault::kThrowStd: return {fault_happens ? NonIpopt_Exception_Thrown : Solve_Succeeded};
    case Fault::kThrowIpopt: return {fault_happens ? Unrecoverable_Exception : Solve_Succeeded};
    case Fault::kThrowInStructure: return {NonIpopt_Exception_Thrown};
    case Fault::kReturnFalse: case Fault::kNaN: case Fault::kInf:
      if (!fault_happens) return {Solve_Succeeded};
      if (c.call == 1 && c.callback != kH) return {Invalid_Number_Detected};
      if (c.callback == kH) return {Invalid_Number_Detected, Solve_Succeeded};
      return {};  // recovered (shorter step) or stopped cleanly
    case Fault::kIndexOutOfRange: case Fault::kCountTooLarge: case Fault::kCountTooSmall:
      if (c.on_hessian && !tr) return {Solve_Succeeded};  // no Hessian read
      return {Invalid_Problem_Definition};
    case Fault::kStructureFalse:
      if (c.on_hessian) return {tr ? Invalid_Option : Solve_Succeeded};  // "no Hessian"
      return {Invalid_Problem_Definition};
    case Fault::kNaNStart: return {Invalid_Number_Detected};
    default: return {Invalid_Problem_Definition};
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(TenThousandMalformedModelsEndWithTheStatusTheirFaultCallsFor) {
  // Calls made by clean runs, per inner solver: faults are drawn among them.
  std::map<std::string, std::array<long, kCallbacks>> clean;
  for (const char* inner : {"gradient-descent", "trust-region", "lbfgs"}) {
    Case c;
    c.inner = inner;
    const Outcome o = Run(c);
    BOOST_REQUIRE_MESSAGE(o.status == Ipopt::Solve_Succeeded,
                          inner << ": clean model not solved: " << qpm::StatusName(o.status));
    clean[inner] = o.calls;
  }
  std::mt19937 rng(20261121);
  constexpr int kCases = 10000;
  std::map<std::string, int> outcomes;
  double slowest = 0.0;
  for (int i = 0; i < kCases; ++i) {
    const Case c = Draw(rng, clean);
    const Outcome o = Run(c);
    const auto expected = Expected(c, clean.at(c.inner)[c.callback]);
    ++outcomes[std::string(FaultName(c.fault)) + " -> " + qpm::StatusName(o.status)];
    slowest = std::max(slowest, o.seconds);
    BOOST_TEST_CONTEXT("case " << i << ": " << FaultName(c.fault) << ", " << c.inner << ", callback "
                               << c.callback << " call " << c.call << ", index " << c.index
                               << (c.on_hessian ? ", Hessian" : "") << (c.fortran ? ", Fortran" : "")) {
      if (!expected.empty()) {
        BOOST_TEST(expected.count(o.status) == 1u, "status " << qpm::StatusName(o.status));
      } else {
        BOOST_TEST(o.status != Ipopt::Internal_Error);
        BOOST_TEST(o.status != Ipopt::Invalid_Problem_Definition);
      }
      const bool solved = o.status != Ipopt::Invalid_Problem_Definition &&
                          o.status != Ipopt::Invalid_Option &&
                          !(c.fault == Fault::kThrowInStructure);
      BOOST_TEST(o.finalize_calls == (solved ? 1 : 0));
      if (o.status == Ipopt::Solve_Succeeded) {  // never a silent wrong answer
        BOOST_TEST(o.violation <= o.tol);  // ||c||_2 <= tol bounds every entry
        BOOST_TEST(o.kkt <= 10 * o.tol);
      }
      BOOST_TEST(o.seconds < 15.0);  // no hang (qpm_max_wall_time is 10 s)
    }
  }
  BOOST_TEST_MESSAGE(kCases << " malformed models; slowest " << slowest << " s; outcomes:");
  for (const auto& [what, count] : outcomes) BOOST_TEST_MESSAGE("  " << count << "  " << what);
}

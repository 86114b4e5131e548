#define BOOST_TEST_MODULE preconditioner
#include <boost/test/unit_test.hpp>

#include <memory>

#include "core/inner/preconditioner.hpp"
#include "paper_options.hpp"
#include "qpm/core/solver.hpp"
#include "status_print.hpp"
#include "test_problems.hpp"

using namespace qpm_test;

namespace qpm {
// Boost.Test prints the kind's name when a comparison fails (status_print.hpp).
inline std::ostream& boost_test_print_type(std::ostream& out, PreconditionerKind kind) {
  return out << ToString(kind);
}
}  // namespace qpm

namespace {

// Q's Hessian pieces of `problem` for beta at z0 (empty: z = (x, s) spread
// over [-0.5, 0.7]), loaded into `q`.
struct Loaded {
  Loaded(std::unique_ptr<qpm::Problem> model, double beta, const Vector& z0)
      : problem(std::move(model)), q(problem.get()) {
    q.merit().set_beta(beta);
    q.Allocate(&it);
    it.x = z0.size() ? z0 : Vector(Vector::LinSpaced(q.layout().n(), -0.5, 0.7));
    BOOST_REQUIRE(q.EvaluateValues(&it));
    BOOST_REQUIRE(q.EvaluateDerivatives(&it));
    BOOST_REQUIRE(q.EvaluateHessian(it));
  }
  Loaded(const TestProblem& p, double beta) : Loaded(std::make_unique<EigenProblem>(p), beta, p.x0) {}
  std::unique_ptr<qpm::Problem> problem;
  qpm::PenaltyFunction q;
  qpm::Iterate it;
};

std::unique_ptr<qpm::Preconditioner> Make(qpm::PreconditionerKind kind, qpm::PenaltyFunction* q,
                                          int dense_limit = 3000) {
  qpm::TrustRegionOptions o;
  o.preconditioner = kind;
  o.dense_limit = dense_limit;
  return qpm::MakePreconditioner(o, q);
}

// H = W + beta J_z^T J_z column by column from Hessian products.
Eigen::MatrixXd DenseH(Loaded* l) {
  const int n = l->q.layout().n();
  Eigen::MatrixXd h(n, n);
  for (int c = 0; c < n; ++c) {
    Vector e = Vector::Unit(n, c), col(n);
    l->q.HessianProduct(l->it, e, &col);
    h.col(c) = col;
  }
  return h;
}

}  // namespace

BOOST_AUTO_TEST_CASE(PenaltyPreconditionerInvertsDPlusBetaJtJExactly) {
  for (double beta : {1.0, 1e3, 1e8}) {
    Loaded l(LeastNorm(), beta);  // W = I: D = I
    const auto m = Make(qpm::PreconditionerKind::kPenalty, &l.q);
    BOOST_REQUIRE(m->kind() == qpm::PreconditionerKind::kPenalty);
    BOOST_REQUIRE(m->Update(l.it));
    const Eigen::MatrixXd j = LeastNorm().jac(l.it.x);
    const Eigen::MatrixXd full = Eigen::MatrixXd::Identity(4, 4) + beta * j.transpose() * j;
    const Vector v = Vector::LinSpaced(4, 1.0, -2.0);
    Vector z(4);
    m->Apply(full * v, nullptr, &z);
    // Woodbury cancels terms of size beta ||J||^2: rounding grows with beta.
    BOOST_TEST_CONTEXT("beta " << beta) { BOOST_TEST((z - v).norm() <= 1e-13 * beta * v.norm()); }
  }
}

BOOST_AUTO_TEST_CASE(JacobiPreconditionerIsTheDiagonalOfH) {
  Loaded l(Hs7(), 100.0);
  const auto m = Make(qpm::PreconditionerKind::kJacobi, &l.q);
  BOOST_REQUIRE(m->Update(l.it));
  const Eigen::MatrixXd h = DenseH(&l);
  Vector z(2);
  m->Apply(Vector::Ones(2), nullptr, &z);
  for (int i = 0; i < 2; ++i) BOOST_TEST(z[i] * std::abs(h(i, i)) == 1.0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(EveryPreconditionerSolvesTheTestProblems) {
  for (auto kind : {qpm::PreconditionerKind::kNone, qpm::PreconditionerKind::kJacobi,
                    qpm::PreconditionerKind::kPenalty, qpm::PreconditionerKind::kCholesky,
                    qpm::PreconditionerKind::kAuto}) {
    for (const TestProblem& p : AllProblems()) {
      EigenProblem problem(p);
      qpm::Options o = PaperOptions();
      o.inner_solver = qpm::InnerSolverType::kTrustRegion;
      o.tr.preconditioner = kind;
      o.paper.feasibility_tol = o.paper.stationarity_tol = 1e-7;
      const qpm::Summary s = qpm::Solve(&problem, p.x0, o);
      BOOST_TEST_CONTEXT(p.name << " preconditioner " << static_cast<int>(kind)) {
        BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
        BOOST_TEST(std::abs(s.f - p.f_star) <= 1e-5);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(AdaptiveGrowthAndExtrapolationKeepTheAnswerAndSaveWork) {
  const TestProblem p = CircleLinear();
  EigenProblem problem(p);
  qpm::Options paper = PaperOptions();
  paper.inner_solver = qpm::InnerSolverType::kTrustRegion;
  paper.paper.feasibility_tol = paper.paper.stationarity_tol = 1e-7;
  qpm::Options fast = paper;
  fast.penalty_growth_mode = qpm::PenaltyGrowthMode::kAdaptive;
  fast.extrapolate = true;
  const qpm::Summary a = qpm::Solve(&problem, p.x0, paper);
  const qpm::Summary b = qpm::Solve(&problem, p.x0, fast);
  BOOST_TEST(a.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(b.termination == qpm::TerminationType::kConverged);
  BOOST_TEST((b.x - p.x_star).norm() <= 1e-6);
  BOOST_TEST(b.outer_iterations < a.outer_iterations);
  BOOST_TEST(b.hess_evals < a.hess_evals);
  BOOST_TEST(b.extrapolations > 0);
  double previous = 0.0;
  for (const qpm::OuterRecord& r : b.outer) {  // beta still grows by alpha in range
    if (previous > 0.0) {
      BOOST_TEST(r.beta / previous >= fast.penalty_growth * (1 - 1e-12));
      BOOST_TEST(r.beta / previous <= fast.penalty_growth_max * (1 + 1e-12));
    }
    previous = r.beta;
  }
}

// min ||x||^2 / 2 with rows x_i + x_shared = 1: every row holds the shared
// variable, so S = J D^{-1} J^T is a dense m x m matrix.
TestProblem SharedVariableRows(int m) {
  TestProblem p;
  p.name = "shared_variable_rows";
  p.n = m + 1, p.m = m;
  p.x0 = Vector::Zero(p.n);
  p.f = [](const Vector& x) { return 0.5 * x.squaredNorm(); };
  p.grad = [](const Vector& x) { return x; };
  p.c = [m](const Vector& x) { return Vector(x.head(m).array() + x[m] - 1.0); };
  p.jac = [m](const Vector&) {
    Eigen::MatrixXd j = Eigen::MatrixXd::Zero(m, m + 1);
    j.leftCols(m).setIdentity();
    j.col(m).setOnes();
    return j;
  };
  p.hess = [m](const Vector&, double sigma, const Vector&) {
    return Eigen::MatrixXd(sigma * Eigen::MatrixXd::Identity(m + 1, m + 1));
  };
  return p;
}

BOOST_AUTO_TEST_CASE(PenaltyPreconditionerBecomesJacobiWhereTheSparseFactorWouldBeDense) {
  Loaded dense(SharedVariableRows(200), 10.0);
  BOOST_TEST(Make(qpm::PreconditionerKind::kPenalty, &dense.q, 0)->kind() == qpm::PreconditionerKind::kJacobi);
  // dense LLT: no check
  BOOST_TEST(Make(qpm::PreconditionerKind::kPenalty, &dense.q)->kind() == qpm::PreconditionerKind::kPenalty);
  Loaded small(LeastNorm(), 10.0);
  BOOST_TEST(Make(qpm::PreconditionerKind::kPenalty, &small.q, 0)->kind() == qpm::PreconditionerKind::kPenalty);
}

BOOST_AUTO_TEST_CASE(SolveWithPenaltyPreconditionerOnADenseProductStillConverges) {
  const TestProblem p = SharedVariableRows(200);
  EigenProblem problem(p);
  qpm::Options o;
  o.tr.preconditioner = qpm::PreconditionerKind::kPenalty;
  o.tr.dense_limit = 0;
  const qpm::Summary s = qpm::Solve(&problem, p.x0, o);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(s.c_max <= 1e-8);
}

// min 1/2 x'Ax + b'x, A tridiagonal (diagonal `diag`, off-diagonal 1), over
// -2 <= x <= 2, rows x_j + x_{j+1} in [-1, 1] (inequalities: slacks) for
// even j and = 0.5 for odd j; with `dense_row`, one more row sum(x) = 0;
// with `shared`, x_0 is added to every row.
class BandQp : public qpm::Problem {
 public:
  BandQp(int n, double diag, bool dense_row = false, bool shared = false)
      : n_(n), diag_(diag), dense_row_(dense_row), shared_(shared) {}
  int num_variables() const override { return n_; }
  int num_constraints() const override { return n_ - 1 + (dense_row_ ? 1 : 0); }
  void GetBounds(qpm::VectorRef x_l, qpm::VectorRef x_u, qpm::VectorRef g_l,
                 qpm::VectorRef g_u) const override {
    x_l.setConstant(-2.0), x_u.setConstant(2.0);
    for (int j = 0; j < n_ - 1; ++j) {
      g_l[j] = j % 2 == 0 ? -1.0 : 0.5;
      g_u[j] = j % 2 == 0 ? 1.0 : 0.5;
    }
    if (dense_row_) g_l[n_ - 1] = g_u[n_ - 1] = 0.0;
  }
  void InitJacobian(qpm::SparseMatrix* j) const override {
    std::vector<Eigen::Triplet<double>> t;
    for (int r = 0; r < n_ - 1; ++r) t.emplace_back(r, r, 1.0), t.emplace_back(r, r + 1, 1.0);
    for (int c = 0; dense_row_ && c < n_; ++c) t.emplace_back(n_ - 1, c, 1.0);
    for (int r = 1; shared_ && r < num_constraints(); ++r) t.emplace_back(r, 0, 1.0);
    j->resize(num_constraints(), n_);
    j->setFromTriplets(t.begin(), t.end());
  }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    Vector ax(n_);
    Product(x, &ax);
    *f = 0.5 * x.dot(ax) + x.sum();
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    for (int r = 0; r < n_ - 1; ++r) g[r] = x[r] + x[r + 1];
    if (dense_row_) g[n_ - 1] = x.sum();
    for (int r = 1; shared_ && r < num_constraints(); ++r) g[r] += x[0];
    return true;
  }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef grad) override {
    Vector ax(n_);
    Product(x, &ax);
    grad = ax.array() + 1.0;
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView* j) override {
    qpm::SparseMatrix constant;  // J is constant: the pattern's values
    InitJacobian(&constant);
    constant.makeCompressed();
    std::copy_n(constant.valuePtr(), constant.nonZeros(), j->valuePtr());
    return true;
  }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* h) const override {
    std::vector<Eigen::Triplet<double>> t;
    for (int i = 0; i < n_; ++i) {
      t.emplace_back(i, i, diag_);
      if (i > 0) t.emplace_back(i, i - 1, 1.0);
    }
    h->resize(n_, n_);
    h->setFromTriplets(t.begin(), t.end());
  }
  bool EvalHessian(const qpm::ConstVectorRef&, double sigma, const qpm::ConstVectorRef&,
                   qpm::SparseMatrix* h) override {
    InitHessian(h);
    *h *= sigma;
    return true;
  }

 private:
  void Product(const qpm::ConstVectorRef& x, Vector* ax) const {
    for (int i = 0; i < n_; ++i) {
      (*ax)[i] = diag_ * x[i] + (i > 0 ? x[i - 1] : 0.0) + (i + 1 < n_ ? x[i + 1] : 0.0);
    }
  }
  int n_;
  double diag_;
  bool dense_row_;
  bool shared_;
};

Loaded LoadedBand(int n, double diag, double beta, bool dense_row = false, bool shared = false) {
  return Loaded(std::make_unique<BandQp>(n, diag, dense_row, shared), beta, Vector());
}

namespace {
// hv == W v + beta J_z^T (J_z v) from the two products, entry for entry
// (W v as HessianProduct at beta = 0, whose J part adds exact zeros).
void CheckTwoPassProduct(Loaded* l, double beta) {
  const int n = l->q.layout().n();
  Vector v(n);
  for (int i = 0; i < n; ++i) v[i] = std::sin(1.3 * i + 0.2) / (1.0 + i);
  Vector hv(n), reference(n), jv(l->q.layout().m());
  l->q.HessianProduct(l->it, v, &hv);
  l->q.merit().set_beta(0.0);
  l->q.HessianProduct(l->it, v, &reference);  // W v (W was evaluated before)
  l->q.jz().Times(l->it, v, jv);
  l->q.jz().TransposeTimesAdd(l->it, beta, jv, &reference);
  BOOST_TEST(hv.allFinite());
  BOOST_TEST((hv.array() == reference.array()).all());
  BOOST_TEST((hv - reference).norm() == 0.0);
}
}  // namespace

// The product with H reads J once (JacobianProducts::AddGramTimes) and is
// to give the two products' result bit for bit, slacks and rows sharing a
// column included.
BOOST_AUTO_TEST_CASE(HessianProductIsTheTwoPassProductBitForBit) {
  for (double beta : {3.7, 1e6}) {
    for (const TestProblem& p : AllProblems()) {  // curved rows: J's values are not +-1
      Loaded l(p, beta);
      BOOST_TEST_CONTEXT(p.name << " beta " << beta) { CheckTwoPassProduct(&l, beta); }
    }
    Loaded band = LoadedBand(40, 4.0, beta, false, true);  // slacks, rows sharing x_0
    BOOST_REQUIRE(band.q.layout().num_slacks() == 20);
    BOOST_TEST_CONTEXT("band, beta " << beta) { CheckTwoPassProduct(&band, beta); }
  }
}

BOOST_AUTO_TEST_CASE(CholeskyPreconditionerInvertsHOnEveryFaceWithSlacks) {
  for (double beta : {1.0, 1e4, 1e8}) {
    Loaded l = LoadedBand(40, 4.0, beta);  // W positive definite: no shift
    BOOST_REQUIRE(l.q.layout().num_slacks() == 20);
    const auto m = Make(qpm::PreconditionerKind::kCholesky, &l.q);
    BOOST_REQUIRE(m->kind() == qpm::PreconditionerKind::kCholesky);
    BOOST_REQUIRE(m->Update(l.it));
    const Eigen::MatrixXd h = DenseH(&l);
    const int n = l.q.layout().n();
    Vector free = Vector::Ones(n);
    for (int i = 0; i < n; i += 3) free[i] = 0.0;  // a third of z on bounds, slacks included
    for (const Vector* face : {static_cast<const Vector*>(nullptr), static_cast<const Vector*>(&free)}) {
      const Vector mask = face ? *face : Vector::Ones(n);
      const Vector v = Vector::LinSpaced(n, 1.0, -2.0).cwiseProduct(mask);
      const Vector r = (h * v).cwiseProduct(mask);  // H_FF v_F, 0 off F
      Vector z(n);
      m->Apply(r, face, &z);
      z = z.cwiseProduct(mask);
      BOOST_TEST_CONTEXT("beta " << beta << (face ? " on a face" : " whole space")) {
        // Cholesky's backward error is about eps cond(H) ||v||; cond grows like beta.
        BOOST_TEST((z - v).norm() <= 1e-12 * beta * v.norm());
      }
    }
    BOOST_TEST(m->factorizations() == 2);  // one per face, no shift
    Vector z(n);
    m->Apply(Vector::Ones(n).cwiseProduct(free), &free, &z);
    BOOST_TEST(m->factorizations() == 2);  // the same face again: no new factorization
  }
}

// Faces inside the factored one: the entry a face fixes is pinned by a
// Schur complement on the factor, exactly and without a factorization; a
// face that frees it again unpins it.
BOOST_AUTO_TEST_CASE(CholeskyPreconditionerPinsAnEntryASubFaceFixesWithoutANewFactorization) {
  for (double beta : {1.0, 1e4}) {
    Loaded l = LoadedBand(40, 4.0, beta);
    const auto m = Make(qpm::PreconditionerKind::kCholesky, &l.q);
    BOOST_REQUIRE(m->Update(l.it));
    const Eigen::MatrixXd h = DenseH(&l);
    const int n = l.q.layout().n();
    const Vector all = Vector::Ones(n);
    Vector one_fixed = all;
    one_fixed[7] = 0.0;
    for (const Vector* face : {&all, static_cast<const Vector*>(&one_fixed), &all}) {
      const Vector v = Vector::LinSpaced(n, 1.0, -2.0).cwiseProduct(*face);
      const Vector r = (h * v).cwiseProduct(*face);  // H_FF v_F, 0 off F
      Vector z(n);
      m->Apply(r, face, &z);
      BOOST_TEST_CONTEXT("beta " << beta << ", " << face->sum() << " free") {
        BOOST_TEST((z.cwiseProduct(*face) - v).norm() <= 1e-12 * beta * v.norm());
        BOOST_TEST(m->factorizations() == 1);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(CholeskyPreconditionerShiftsAnIndefiniteHessianAndStaysPositive) {
  Loaded l = LoadedBand(40, -3.0, 1.0);  // W indefinite, and H = W + J_z^T J_z too
  const Eigen::MatrixXd h = DenseH(&l);
  BOOST_REQUIRE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(h).eigenvalues().minCoeff() < 0.0);
  const auto m = Make(qpm::PreconditionerKind::kCholesky, &l.q);
  BOOST_REQUIRE(m->Update(l.it));
  const int n = l.q.layout().n();
  Vector z(n);
  for (int k = 0; k < 5; ++k) {
    const Vector r = Vector::LinSpaced(n, -1.0, 1.0 + k);
    m->Apply(r, nullptr, &z);
    BOOST_TEST(r.dot(z) > 0.0);  // M^{-1} positive definite
    BOOST_TEST(z.allFinite());
  }
  BOOST_TEST(m->factorizations() > 1);  // the unshifted trial failed
}

// A quadratic objective with linear constraints has one H per beta: a new
// point keeps an unshifted factor, the trust region's or the multiplier
// step's; a new beta, or a shift (which decays at the next point), makes a
// new one.
BOOST_AUTO_TEST_CASE(CholeskyPreconditionerKeepsAnUnshiftedFactorWhileHIsUnchanged) {
  for (double diag : {4.0, -3.0}) {  // H definite, and H needing a shift
    Loaded l = LoadedBand(40, diag, 10.0);
    const int n = l.q.layout().n();
    const auto m = Make(qpm::PreconditionerKind::kCholesky, &l.q);
    Vector z(n);
    auto step_at = [&](double a, double b) {  // Update at a new point, and one solve
      l.it.x = Vector::LinSpaced(n, a, b);
      BOOST_REQUIRE(l.q.EvaluateValues(&l.it));
      BOOST_REQUIRE(l.q.EvaluateDerivatives(&l.it));
      BOOST_REQUIRE(l.q.EvaluateHessian(l.it));
      BOOST_REQUIRE(m->Update(l.it));
      const double sigma = m->StepShift();
      const Vector v = Vector::LinSpaced(n, 1.0, -2.0);
      m->Apply(DenseH(&l) * v + sigma * v, nullptr, &z);
      return sigma;
    };
    BOOST_TEST_CONTEXT("diag " << diag) {
      step_at(-0.5, 0.7);
      const long first = m->factorizations();
      BOOST_TEST(first >= 1);
      const double sigma = step_at(0.3, -0.4);
      if (diag > 0.0) {
        BOOST_TEST(sigma == 0.0);
        BOOST_TEST((z - Vector::LinSpaced(n, 1.0, -2.0)).norm() <= 1e-10 * z.norm());
        BOOST_TEST(m->factorizations() == first);  // the same H: the same factor
      } else {
        BOOST_TEST(sigma > 0.0);
        BOOST_TEST(m->factorizations() > first);  // the decayed shift's factorization
      }
      const long second = m->factorizations();
      l.q.merit().set_beta(20.0);
      step_at(0.3, -0.4);
      BOOST_TEST(m->factorizations() > second);  // beta changed H
      if (diag > 0.0) {  // the multiplier step keeps the factor on its face, makes one on another
        const long third = m->factorizations();
        qpm::FaceSolve* solve = m->LendFactorization();
        BOOST_REQUIRE(solve->EvaluateAndFactor(l.it, Vector::Ones(n)));
        BOOST_TEST(m->factorizations() == third);
        BOOST_TEST(step_at(0.3, -0.4) == 0.0);
        BOOST_TEST((z - Vector::LinSpaced(n, 1.0, -2.0)).norm() <= 1e-10 * z.norm());
        BOOST_TEST(m->factorizations() == third);
        Vector face = Vector::Ones(n);
        face[7] = 0.0;
        const Vector v = Vector::LinSpaced(n, 1.0, -2.0).cwiseProduct(face);
        for (int k = 1; k <= 2; ++k) {  // a new face, then the same one again
          BOOST_REQUIRE(solve->EvaluateAndFactor(l.it, face));
          BOOST_TEST(m->factorizations() == third + 1);
          solve->Solve((DenseH(&l) * v).cwiseProduct(face), &z);  // H_FF v_F
          BOOST_TEST((z.cwiseProduct(face) - v).norm() <= 1e-10 * v.norm());
        }
      }
    }
  }
}

// On a quadratic rho is 1 to rounding: the radius goes to tr.max_radius at
// once instead of doubling from tr.initial_radius, and the factor is kept.
BOOST_AUTO_TEST_CASE(AnExactRatioOnAQuadraticOpensTheRadiusAtOnce) {
  const TestProblem p = LeastNorm();
  EigenProblem problem(p);
  const Vector far = Vector::Constant(p.n, 300.0);
  qpm::Options jump;
  jump.tr.initial_radius = 1.0;  // the default's first radius is already tr.max_radius
  qpm::Options doubling = jump;
  doubling.tr.exact_ratio = 0.0;
  const qpm::Summary d = qpm::Solve(&problem, far, doubling);
  const qpm::Summary s = qpm::Solve(&problem, far, jump);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(d.termination == qpm::TerminationType::kConverged);
  BOOST_REQUIRE(s.preconditioner == "cholesky");
  BOOST_TEST((s.x - p.x_star).norm() <= 1e-6);
  BOOST_TEST(d.inner_iterations >= 8);  // log2(|x0 - x*|) doublings from radius 1
  BOOST_TEST(s.inner_iterations <= d.inner_iterations - 5);
  BOOST_TEST(s.factorizations < s.inner_iterations);  // one H per beta
}

// A Newton step far longer than tr.max_radius: with the cap fixed every
// step is cut at max_radius; a step there that the model predicted well
// raises the cap, and the solve takes a few steps.
BOOST_AUTO_TEST_CASE(AWellPredictedStepAtTheCapRaisesTheCap) {
  const TestProblem p = LeastNorm();
  EigenProblem problem(p);
  const Vector far = Vector::Constant(p.n, 1e5);  // 2e5 from x*, 200 max_radius
  qpm::Options capped;
  capped.tr.cap_growth = 1.0;
  const qpm::Summary c = qpm::Solve(&problem, far, capped);
  const qpm::Summary s = qpm::Solve(&problem, far, qpm::Options());
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(c.termination == qpm::TerminationType::kConverged);
  BOOST_REQUIRE(s.preconditioner == "cholesky");
  BOOST_TEST((s.x - p.x_star).norm() <= 1e-6);
  BOOST_TEST((c.x - p.x_star).norm() <= 1e-6);
  BOOST_TEST(c.inner_iterations >= 150);  // steps of max_radius
  BOOST_TEST(s.inner_iterations <= 20);
}

BOOST_AUTO_TEST_CASE(AutoPreconditionerFactorsSparseHAndAvoidsTheFillOfADenseRow) {
  Loaded band = LoadedBand(2000, 4.0, 10.0);
  BOOST_TEST(Make(qpm::PreconditionerKind::kAuto, &band.q)->kind() == qpm::PreconditionerKind::kCholesky);
  // sum(x) = 0 makes J^T J dense: the diagonal instead.
  Loaded dense_row = LoadedBand(2000, 4.0, 10.0, true);
  BOOST_TEST(Make(qpm::PreconditionerKind::kAuto, &dense_row.q)->kind() == qpm::PreconditionerKind::kJacobi);
  // Asked for by name, cholesky falls back to the penalty preconditioner there.
  BOOST_TEST(Make(qpm::PreconditionerKind::kCholesky, &dense_row.q)->kind() == qpm::PreconditionerKind::kPenalty);
  // A factorization beyond the budget is not taken.
  qpm::TrustRegionOptions o;
  o.factor_min_flops = 0.0;
  o.factor_flops_per_product = 0.01;
  BOOST_TEST(qpm::MakePreconditioner(o, &band.q)->kind() == qpm::PreconditionerKind::kJacobi);
  o.factor_flops_per_product = 1e4;
  o.factor_min_nonzeros = 0.0;
  o.factor_nonzeros_per_product = 0.01;
  BOOST_TEST(qpm::MakePreconditioner(o, &band.q)->kind() == qpm::PreconditionerKind::kJacobi);
}

namespace {

// auto with every factorization beyond the flops budget, the trial at
// trial_fraction, and factorizations counted as free.
qpm::Options AutoBeyondTheBudget(double trial_fraction) {
  qpm::Options o;
  o.tr.factor_min_flops = 0.0;
  o.tr.factor_flops_per_product = 0.01;
  o.tr.auto_trial_fraction = trial_fraction;
  o.tr.factor_flops_per_entry = 1e12;
  return o;
}

}  // namespace

// auto with the factorization beyond the flops budget: jacobi, and a
// cholesky step once a step's CG costs auto_trial_fraction of a
// factorization (here when a step takes a few CG iterations, so that the
// jacobi step compared is not a single boundary step); the trial's counted
// work against the jacobi
// step's decides which stays: a factorization counted as nearly free keeps
// cholesky (there the cut of the next test switches first: one product is
// already a factorization's work), one counted as enormous goes back to
// jacobi after the trial, and each choice repeats exactly.
BOOST_AUTO_TEST_CASE(AutoKeepsThePreconditionerOfLessCountedWorkAfterOneTrialStep) {
  BandQp problem(300, 4.0);
  qpm::Options o = AutoBeyondTheBudget(1.0);
  const qpm::Summary cheap = qpm::Solve(&problem, Vector::Zero(300), o);
  BOOST_TEST(cheap.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(cheap.preconditioner == "cholesky");
  BOOST_TEST(cheap.factorizations >= 1);  // kept while H is unchanged (Reuse)
  const qpm::Summary again = qpm::Solve(&problem, Vector::Zero(300), o);
  BOOST_TEST(again.inner_iterations == cheap.inner_iterations);
  BOOST_TEST(again.factorizations == cheap.factorizations);
  o.tr.factor_flops_per_entry = 1e-12;  // one factorization outweighs any CG
  const qpm::Summary dear = qpm::Solve(&problem, Vector::Zero(300), o);
  BOOST_TEST(dear.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(dear.preconditioner == "jacobi");
  BOOST_TEST(dear.factorizations == 1);  // the trial's
  o.tr.auto_trial_fraction = 0.0;  // never: jacobi throughout
  const qpm::Summary never = qpm::Solve(&problem, Vector::Zero(300), o);
  BOOST_TEST(never.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(never.factorizations == 0);
  BOOST_TEST(never.preconditioner == "jacobi");
  BOOST_TEST(std::abs(cheap.f - never.f) <= 1e-6 * std::max(1.0, std::abs(never.f)));
}

// auto's jacobi steps are cut at one predicted factorization's work (in
// products with H): one cut there switches to cholesky with no trial step
// (the trial here never comes). A factorization counted as nearly free
// makes the cut one product, so cholesky comes at the second point; one
// counted as enormous never cuts, and jacobi stays with no factorization.
BOOST_AUTO_TEST_CASE(AutoSwitchesToCholeskyWhenAJacobiStepCostsAFactorization) {
  BandQp problem(300, 4.0);
  qpm::Options o = AutoBeyondTheBudget(1e9);  // a trial would need 1e9 factorizations' CG
  const qpm::Summary cut = qpm::Solve(&problem, Vector::Zero(300), o);
  BOOST_TEST(cut.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(cut.preconditioner == "cholesky");
  BOOST_TEST(cut.factorizations >= 1);
  const qpm::Summary again = qpm::Solve(&problem, Vector::Zero(300), o);
  BOOST_TEST(again.inner_iterations == cut.inner_iterations);
  BOOST_TEST(again.hess_products == cut.hess_products);
  o.tr.factor_flops_per_entry = 1e-12;  // one factorization outweighs any CG
  const qpm::Summary uncut = qpm::Solve(&problem, Vector::Zero(300), o);
  BOOST_TEST(uncut.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(uncut.preconditioner == "jacobi");
  BOOST_TEST(uncut.factorizations == 0);
  BOOST_TEST(std::abs(cut.f - uncut.f) <= 1e-6 * std::max(1.0, std::abs(uncut.f)));
}

BOOST_AUTO_TEST_CASE(DefaultSolveOfABoundedQpWithSlacksUsesTheFactorizationAndConverges) {
  for (double diag : {4.0, -1.5}) {  // convex, and nonconvex (shifted factorizations)
    BandQp problem(300, diag);
    const qpm::Summary s = qpm::Solve(&problem, Vector::Zero(300), qpm::Options());
    BOOST_TEST_CONTEXT("diag " << diag) {
      BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
      BOOST_TEST(s.preconditioner == "cholesky");
      BOOST_TEST(s.factorizations > 0);
      BOOST_TEST(s.c_max <= 1e-8);
      qpm::Options jacobi;
      jacobi.tr.preconditioner = qpm::PreconditionerKind::kJacobi;
      const qpm::Summary j = qpm::Solve(&problem, Vector::Zero(300), jacobi);
      BOOST_TEST(j.termination == qpm::TerminationType::kConverged);
      if (diag > 0) {  // convex: one minimum, reached with fewer products (nonconvex: the
                       // two may reach different local minima by different paths)
        BOOST_TEST(std::abs(s.f - j.f) <= 1e-6 * std::max(1.0, std::abs(j.f)));
        BOOST_TEST(s.hess_products < j.hess_products);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(FaceSolveInvertsHOnTheFaceAndRefusesAnIndefiniteOneWithoutShifting) {
  Loaded definite = LoadedBand(40, 4.0, 1e4);
  const auto m = Make(qpm::PreconditionerKind::kCholesky, &definite.q);
  qpm::FaceSolve* solve = m->LendFactorization();
  BOOST_REQUIRE(solve);
  const int n = definite.q.layout().n();
  Vector free = Vector::Ones(n);
  for (int i = 1; i < n; i += 4) free[i] = 0.0;
  BOOST_TEST(solve->EvaluateAndFactor(definite.it, free));
  const Eigen::MatrixXd h = DenseH(&definite);
  const Vector v = Vector::LinSpaced(n, -1.0, 2.0).cwiseProduct(free);
  Vector z(n);
  solve->Solve((h * v).cwiseProduct(free), &z);
  BOOST_TEST((z.cwiseProduct(free) - v).norm() <= 1e-12 * 1e4 * v.norm());
  BOOST_TEST(m->factorizations() == 1);

  Loaded indefinite = LoadedBand(40, -3.0, 1.0);
  const auto shifted = Make(qpm::PreconditionerKind::kCholesky, &indefinite.q);
  BOOST_TEST(!shifted->LendFactorization()->EvaluateAndFactor(indefinite.it, Vector::Ones(indefinite.q.layout().n())));
  BOOST_TEST(shifted->factorizations() == 1);  // no shift tried
  BOOST_TEST(!Make(qpm::PreconditionerKind::kJacobi, &indefinite.q)->LendFactorization());
}

// Orthogonal regression of a circle (CUTE's ORTHREGD in miniature): points
// (x_i, y_i) near data (a_i, b_i) on a circle of centre (h1, h2) and radius
// r, min sum (x_i - a_i)^2 + (y_i - b_i)^2 s.t. (x_i - h1)^2 + (y_i - h2)^2
// - r^2 = 0, with J's sparse pattern. From the data, h = 0 and r = 1 (Start),
// every row is violated by ~100 and beta c_i Hess c_i (-2 y_i on r) makes
// W + beta J^T J indefinite.
class CircleFit : public qpm::Problem {
 public:
  explicit CircleFit(int points) : points_(points), a_(points), b_(points) {
    for (int i = 0; i < points; ++i) {
      const double t = 6.283185307179586 * i / points, radius = 10.0 + 0.3 * std::sin(7.0 * t);
      a_[i] = 5.0 + radius * std::cos(t), b_[i] = 3.0 + radius * std::sin(t);
    }
  }
  Vector Start() const {
    Vector x = Vector::Zero(num_variables());
    for (int i = 0; i < points_; ++i) x[2 * i] = a_[i], x[2 * i + 1] = b_[i];
    x[R()] = 1.0;
    return x;
  }
  int num_variables() const override { return 2 * points_ + 3; }
  int num_constraints() const override { return points_; }
  void InitJacobian(qpm::SparseMatrix* j) const override { Jacobian(Start(), j); }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    *f = 0.0;
    for (int i = 0; i < points_; ++i) *f += Sq(x[2 * i] - a_[i]) + Sq(x[2 * i + 1] - b_[i]);
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    for (int i = 0; i < points_; ++i) {
      g[i] = Sq(x[2 * i] - x[R() - 2]) + Sq(x[2 * i + 1] - x[R() - 1]) - Sq(x[R()]);
    }
    return true;
  }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef grad) override {
    grad.setZero();
    for (int i = 0; i < points_; ++i) {
      grad[2 * i] = 2.0 * (x[2 * i] - a_[i]), grad[2 * i + 1] = 2.0 * (x[2 * i + 1] - b_[i]);
    }
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef& x, qpm::SparseMatrixView* j) override {
    qpm::SparseMatrix values;
    Jacobian(x, &values);
    std::copy_n(values.valuePtr(), values.nonZeros(), j->valuePtr());
    return true;
  }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* h) const override {
    Hessian(1.0, Vector::Ones(points_), h);
  }
  bool EvalHessian(const qpm::ConstVectorRef&, double sigma, const qpm::ConstVectorRef& y,
                   qpm::SparseMatrix* h) override {
    Hessian(sigma, y, h);
    return true;
  }

 private:
  static double Sq(double v) { return v * v; }
  int R() const { return 2 * points_ + 2; }
  void Jacobian(const qpm::ConstVectorRef& x, qpm::SparseMatrix* j) const {
    std::vector<Eigen::Triplet<double>> t;
    for (int i = 0; i < points_; ++i) {
      const double dx = x[2 * i] - x[R() - 2], dy = x[2 * i + 1] - x[R() - 1];
      t.emplace_back(i, 2 * i, 2.0 * dx), t.emplace_back(i, 2 * i + 1, 2.0 * dy);
      t.emplace_back(i, R() - 2, -2.0 * dx), t.emplace_back(i, R() - 1, -2.0 * dy);
      t.emplace_back(i, R(), -2.0 * x[R()]);
    }
    j->resize(points_, num_variables());
    j->setFromTriplets(t.begin(), t.end());
    j->makeCompressed();
  }
  // Lower triangle; the centre's and r's diagonal sums over the rows.
  void Hessian(double sigma, const qpm::ConstVectorRef& y, qpm::SparseMatrix* h) const {
    std::vector<Eigen::Triplet<double>> t;
    for (int i = 0; i < points_; ++i) {
      for (int k : {0, 1}) {
        const int v = 2 * i + k, centre = R() - 2 + k;
        t.emplace_back(v, v, 2.0 * sigma + 2.0 * y[i]);
        t.emplace_back(centre, v, -2.0 * y[i]);
        t.emplace_back(centre, centre, 2.0 * y[i]);
      }
      t.emplace_back(R(), R(), -2.0 * y[i]);
    }
    h->resize(num_variables(), num_variables());
    h->setFromTriplets(t.begin(), t.end());
    h->makeCompressed();
  }
  int points_;
  Vector a_, b_;
};

// Without a box, a shifted factorization's shift decays by a third a point
// (Ipopt's rule) and, with W at lambda + beta c far from feasibility, stays
// needed: steps held short by the shift inside a trust region that would
// allow longer ones. The lowered shift and the Gauss-Newton model after a
// shifted point reach the same minimizer in fewer steps.
BOOST_AUTO_TEST_CASE(TheLoweredShiftAndTheGaussNewtonModelShortenAFarInfeasibleNonconvexStart) {
  CircleFit problem(40);
  qpm::Options defaults;
  defaults.tr.preconditioner = qpm::PreconditionerKind::kCholesky;  // auto: too small to pay
  qpm::Options plain = defaults;
  plain.tr.shift_lowering_trials = 0;
  plain.tr.gauss_newton_after_shift = false;
  const qpm::Summary d = qpm::Solve(&problem, problem.Start(), defaults);
  const qpm::Summary s = qpm::Solve(&problem, problem.Start(), plain);
  BOOST_TEST(d.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(s.termination == qpm::TerminationType::kConverged);
  BOOST_REQUIRE(d.preconditioner == "cholesky");
  BOOST_TEST(std::abs(d.f - s.f) <= 1e-8 * std::abs(s.f));
  BOOST_TEST(d.inner_iterations < s.inner_iterations);
  BOOST_TEST_MESSAGE("inner iterations " << d.inner_iterations << " against " << s.inner_iterations);
}

// LowerStepShift: where the decayed shift's Newton step lies inside the
// ball, lower shifts are tried and the one kept still makes H + sigma I
// positive definite, and M is its factor; where that step is already longer
// than the radius the decayed shift stands.
BOOST_AUTO_TEST_CASE(TheLoweredShiftStaysAboveHsInertiaAndStandsForAShortRadius) {
  Loaded l = LoadedBand(40, 1.98, 1.0);  // W's least eigenvalue about -0.01
  const int n = l.q.layout().n();
  const auto lowered = Make(qpm::PreconditionerKind::kCholesky, &l.q);
  const auto kept_as_is = Make(qpm::PreconditionerKind::kCholesky, &l.q);
  Vector z(n);
  auto at = [&](double a, double b) {  // a new point, both updated there
    l.it.x = Vector::LinSpaced(n, a, b);
    BOOST_REQUIRE(l.q.EvaluateValues(&l.it));
    BOOST_REQUIRE(l.q.EvaluateDerivatives(&l.it));
    BOOST_REQUIRE(l.q.EvaluateHessian(l.it));
    BOOST_REQUIRE(lowered->Update(l.it));
    BOOST_REQUIRE(kept_as_is->Update(l.it));
  };
  at(-0.5, 0.7);
  for (const auto* m : {&lowered, &kept_as_is}) {
    (*m)->Apply(Vector::Ones(n), nullptr, &z);  // the first factorization needs a shift
    BOOST_REQUIRE((*m)->Shifted());
  }
  at(0.3, -0.4);
  const double sigma = lowered->StepShift();
  const double lowest = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(DenseH(&l)).eigenvalues().minCoeff();
  BOOST_REQUIRE(sigma / 10.0 + lowest > 0.0);  // one lowering at least factors

  const long before = kept_as_is->factorizations();
  BOOST_TEST(kept_as_is->LowerStepShift(l.it.grad_q, 1e-12, 4, 10.0) == sigma);
  BOOST_TEST(kept_as_is->factorizations() == before + 1);  // sigma's own: nothing tried below

  const double kept = lowered->LowerStepShift(l.it.grad_q, 1e12, 4, 10.0);
  BOOST_TEST(kept <= sigma / 10.0);
  BOOST_TEST(kept + lowest > 0.0);  // H + kept I positive definite
  const Vector v = Vector::LinSpaced(n, 1.0, -2.0);
  lowered->Apply(DenseH(&l) * v + kept * v, nullptr, &z);  // M is that matrix's factor
  BOOST_TEST((z - v).norm() <= 1e-8 * v.norm());
  BOOST_TEST(std::abs(lowered->StepShift() - kept / 3.0) <= 1e-15 * kept);  // the next decays from it
}

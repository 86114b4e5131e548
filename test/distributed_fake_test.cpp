// The core's distributed path (qpm/core/distributed.hpp; docs/petsc.md,
// "Distributed models") without PETSc or MPI: two std::threads play two
// processes, each running qpm::Solve on its own block of one problem through
// a fake DistributedModel. What MPI would carry between the processes goes
// through a Rendezvous in shared memory: each collective call of one rank (a
// Sum, a Max, J v, J^T w, W v, the gathering of x or lambda) meets the same
// call of the other rank, and each gets the other's values. A call left
// without its partner (the other rank made a different call, its solve
// returned, or it made none within the timeout) breaks the rendezvous: both
// ranks stop with a message, and the test fails instead of hanging.
//
// The problem: n = 10 variables and m = 10 rows, split 5 + 5 (rank r holds
// x_i and row k for i, k in [5r, 5r + 5)), indices mod n:
//
//   min  sum_i (x_i - a_i)^2 / 2
//   s.t. g_k(x) = x_k x_{k+1} + x_k + x_{k+1} = b_k     k even (equality)
//        l_k <= g_k(x) = x_k - x_{k+1}^2 <= u_k          k odd (inequality)
//        x_l <= x <= x_u.
//
// Row 4 (rank 0) reads x_5 and row 9 (rank 1) reads x_0: J's rows span both
// blocks, and so do W's (the product x_4 x_5). x* and the multipliers
// lambda* (Ipopt's sign) and z* are chosen and the data made to fit the KKT
// conditions: b_k = g_k(x*); rows 1 and 9 active at l_k (lambda* < 0), rows
// 3, 5, 7 inactive (lambda* = 0); x_3 at its lower and x_6 at its upper bound;
// a = x* + J(x*)^T lambda* - z_L* + z_U* (grad f(x*) = x* - a). The
// Hessian of the Lagrangian, I + sum_k lambda*_k Hess g_k, is made of 2 x 2
// blocks [[1 + d_k, lambda*_k], [lambda*_k, 1 + d_k+1]] (k even, d >= 0,
// |lambda*_k| < 1): positive definite, so x* is a strict local minimizer.
#define BOOST_TEST_MODULE distributed_fake
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "qpm/core/distributed.hpp"
#include "qpm/core/solver.hpp"
#include "status_print.hpp"

namespace {

using qpm::ConstVectorRef;
using qpm::Vector;
using qpm::VectorRef;

constexpr int kBlock = 5;           // variables and rows per rank
constexpr int kN = 2 * kBlock;      // variables = rows
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::chrono::milliseconds kTimeout(5000);  // a collective call's wait for its partner

// ---------------------------------------------------------------------------
// The two "processes'" shared memory.

// A rendezvous that could not pair a call: the solve on that rank ends.
class Broken : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Pairs the collective calls of ranks 0 and 1. Each rank's calls are
// numbered; call #r of rank 0 meets call #r of rank 1. A post is kept in
// slot r % 2 of its rank: a rank can post call #r + 2 only after call #r + 1
// met, i.e. after the other rank has read call #r.
class Rendezvous {
 public:
  explicit Rendezvous(std::chrono::milliseconds timeout) : timeout_(timeout) {}

  // Gives this rank's `mine`, returns the other rank's values of the same
  // call; throws Broken when there is no such call.
  Vector Exchange(int rank, const char* what, const ConstVectorRef& mine) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (broken_) throw Broken(why_);
    const int other = 1 - rank;
    const long call = calls_[rank]++;
    Post& post = posts_[rank][call % 2];
    post.call = call;
    post.what = what;
    post.values = mine;
    changed_.notify_all();
    const Post& theirs = posts_[other][call % 2];
    changed_.wait_for(lock, timeout_,
                      [&] { return broken_ || theirs.call == call || left_[other]; });
    if (broken_) throw Broken(why_);
    std::ostringstream out;
    out << "collective call #" << call << ": rank " << rank << " called " << what << ", ";
    if (theirs.call != call) {
      if (left_[other]) {
        out << "but rank " << other << "'s solve had returned";
      } else {
        out << "but rank " << other << " made no call within " << timeout_.count() << " ms";
      }
      Break(out.str());
    }
    if (std::strcmp(theirs.what, what) != 0) {
      out << "rank " << other << " called " << theirs.what;
      Break(out.str());
    }
    return theirs.values;
  }

  // The rank's solve returned: a later call of the other rank has no partner.
  void Leave(int rank) {
    std::lock_guard<std::mutex> lock(mutex_);
    left_[rank] = true;
    changed_.notify_all();
  }

  long calls(int rank) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_[rank];
  }

 private:
  struct Post {
    long call = -1;
    const char* what = "";
    Vector values;
  };

  [[noreturn]] void Break(const std::string& why) {
    if (!broken_) why_ = why;
    broken_ = true;
    changed_.notify_all();
    throw Broken(why_);
  }

  const std::chrono::milliseconds timeout_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  Post posts_[2][2];  // [rank][call % 2]
  long calls_[2] = {0, 0};
  bool left_[2] = {false, false};
  bool broken_ = false;
  std::string why_;
};

// One rank's view of the rendezvous: the collectives a model is made of,
// each combined in rank order (rank 0's part first), so that both ranks get
// bitwise the same result.
class Collectives {
 public:
  Collectives(int rank, Rendezvous* meet) : rank_(rank), meet_(meet) {}

  // The two blocks one after the other.
  Vector Gather(const char* what, const ConstVectorRef& block) const {
    const Vector theirs = meet_->Exchange(rank_, what, block);
    Vector all(block.size() + theirs.size());
    all << (rank_ == 0 ? Vector(block) : theirs), (rank_ == 0 ? theirs : Vector(block));
    return all;
  }
  // The sum of the two ranks' vectors of one size.
  Vector SumOfParts(const char* what, const ConstVectorRef& part) const {
    const Vector theirs = meet_->Exchange(rank_, what, part);
    return rank_ == 0 ? Vector(part + theirs) : Vector(theirs + part);
  }

 private:
  int rank_;
  Rendezvous* meet_;
};

class TwoRankReductions final : public qpm::Reductions {
 public:
  explicit TwoRankReductions(Collectives collectives) : all_(collectives) {}
  double Sum(double local) const override {
    return all_.SumOfParts("Sum", Vector::Constant(1, local))[0];
  }
  // A NaN on either rank is the maximum (both ranks see it).
  double Max(double local) const override {
    const Vector both = all_.Gather("Max", Vector::Constant(1, local));
    if (std::isnan(both[0]) || std::isnan(both[1])) return std::numeric_limits<double>::quiet_NaN();
    return std::max(both[0], both[1]);
  }

 private:
  Collectives all_;
};

// ---------------------------------------------------------------------------
// The problem of the header, as formulas over the whole x.

int Next(int i) { return (i + 1) % kN; }
int Previous(int i) { return (i + kN - 1) % kN; }
bool EqualityRow(int k) { return k % 2 == 0; }

double Row(int k, const Vector& x) {
  const double u = x[k], v = x[Next(k)];
  return EqualityRow(k) ? u * v + u + v : u - v * v;
}
// dg_k/dx_k and dg_k/dx_{k+1}: row k's two entries of J.
double FirstEntry(int k, const Vector& x) { return EqualityRow(k) ? x[Next(k)] + 1.0 : 1.0; }
double SecondEntry(int k, const Vector& x) { return EqualityRow(k) ? x[k] + 1.0 : -2.0 * x[Next(k)]; }

// W = sigma I + sum_k lambda_k Hess g_k (independent of x): its diagonal,
// and upper[i] = W_{i,i+1} (W has no other entries).
struct Hessian {
  Vector diagonal, upper;
};

Hessian HessianOf(double sigma, const Vector& lambda) {
  Hessian w{Vector::Constant(kN, sigma), Vector::Zero(kN)};
  for (int k = 0; k < kN; ++k) {
    if (EqualityRow(k)) {
      w.upper[k] += lambda[k];
    } else {
      w.diagonal[Next(k)] += -2.0 * lambda[k];
    }
  }
  return w;
}

struct Chain {
  Vector x_star, lambda_star, z_l, z_u, a;
  Vector x_l, x_u, g_l, g_u;
  Vector x0;
  double f_star = 0.0;
};

Chain MakeChain() {
  Chain c;
  c.x_star.resize(kN);
  c.x_star << 0.5, -0.3, 0.8, 0.2, 1.1, -0.4, 0.9, 0.3, -0.6, 0.7;
  c.lambda_star.resize(kN);
  c.lambda_star << 0.3, -0.35, -0.2, 0.0, 0.4, 0.0, -0.25, 0.0, 0.15, -0.3;
  c.z_l = Vector::Zero(kN);
  c.z_u = Vector::Zero(kN);
  c.z_l[3] = 0.4;
  c.z_u[6] = 0.5;

  c.x_l = Vector::Constant(kN, -kInf);
  c.x_u = Vector::Constant(kN, kInf);
  c.x_l[3] = c.x_star[3];  // active, rank 0
  c.x_u[6] = c.x_star[6];  // active, rank 1
  c.x_l[1] = -2.0, c.x_u[1] = 2.0;  // inactive
  c.x_u[8] = 5.0;                   // inactive

  c.g_l.resize(kN);
  c.g_u.resize(kN);
  for (int k = 0; k < kN; ++k) c.g_l[k] = c.g_u[k] = Row(k, c.x_star);
  c.g_u[1] = kInf;                                       // active at l, rank 0
  c.g_l[3] -= 0.5, c.g_u[3] = kInf;                      // inactive, rank 0
  c.g_l[5] = -kInf, c.g_u[5] += 0.5;                     // inactive, rank 1
  c.g_l[7] -= 1.0, c.g_u[7] += 1.0;                      // inactive, two-sided, rank 1
  c.g_u[9] += 2.0;                                       // active at l, two-sided, rank 1

  Vector jt_lambda = Vector::Zero(kN);  // J(x*)^T lambda*
  for (int k = 0; k < kN; ++k) {
    jt_lambda[k] += FirstEntry(k, c.x_star) * c.lambda_star[k];
    jt_lambda[Next(k)] += SecondEntry(k, c.x_star) * c.lambda_star[k];
  }
  c.a = c.x_star + jt_lambda - c.z_l + c.z_u;
  c.f_star = 0.5 * (c.x_star - c.a).squaredNorm();
  c.x0 = Vector::Zero(kN);
  return c;
}

// ---------------------------------------------------------------------------
// The problem on one process: assembled J and W, the core's serial path.

class SerialChain final : public qpm::Problem {
 public:
  explicit SerialChain(const Chain& chain) : c_(chain) {}

  int num_variables() const override { return kN; }
  int num_constraints() const override { return kN; }
  void GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const override {
    x_l = c_.x_l, x_u = c_.x_u, g_l = c_.g_l, g_u = c_.g_u;
  }
  void InitJacobian(qpm::SparseMatrix* jacobian) const override {
    std::vector<Eigen::Triplet<double>> entries;
    for (int k = 0; k < kN; ++k) entries.emplace_back(k, k, 0.0), entries.emplace_back(k, Next(k), 0.0);
    jacobian->resize(kN, kN);
    jacobian->setFromTriplets(entries.begin(), entries.end());
  }
  bool EvalObjective(const ConstVectorRef& x, double* f) override {
    *f = 0.5 * (x - c_.a).squaredNorm();
    return true;
  }
  bool EvalConstraints(const ConstVectorRef& x, VectorRef g) override {
    for (int k = 0; k < kN; ++k) g[k] = Row(k, x);
    return true;
  }
  bool EvalGradient(const ConstVectorRef& x, VectorRef grad_f) override {
    grad_f = x - c_.a;
    return true;
  }
  bool EvalJacobian(const ConstVectorRef& x, qpm::SparseMatrixView* jacobian) override {
    const Vector at = x;
    for (int k = 0; k < kN; ++k) {
      for (qpm::SparseMatrixView::InnerIterator e(*jacobian, k); e; ++e) {
        e.valueRef() = e.col() == k ? FirstEntry(k, at) : SecondEntry(k, at);
      }
    }
    return true;
  }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* hessian) const override {  // lower triangle
    std::vector<Eigen::Triplet<double>> entries;
    for (int i = 0; i < kN; ++i) entries.emplace_back(i, i, 0.0);
    for (int k = 0; k < kN; k += 2) entries.emplace_back(k + 1, k, 0.0);
    hessian->resize(kN, kN);
    hessian->setFromTriplets(entries.begin(), entries.end());
  }
  bool EvalHessian(const ConstVectorRef&, double sigma, const ConstVectorRef& lambda,
                   qpm::SparseMatrix* hessian) override {
    const Hessian w = HessianOf(sigma, lambda);
    for (int i = 0; i < hessian->outerSize(); ++i) {
      for (qpm::SparseMatrix::InnerIterator e(*hessian, i); e; ++e) {
        e.valueRef() = e.col() == i ? w.diagonal[i] : w.upper[e.col()];
      }
    }
    return true;
  }

 private:
  const Chain& c_;
};

// ---------------------------------------------------------------------------
// One rank's blocks of the problem as a distributed model: x_i and rows k
// for i, k in [first, first + kBlock). What a block lacks (the other block
// of x, of v, of lambda; the other rank's terms of J^T w and of the
// column sums of squares) comes through the rendezvous.

class FakeRank final : public qpm::Problem, public qpm::DistributedModel {
 public:
  FakeRank(const Chain& chain, int rank, Rendezvous* meet)
      : c_(chain), first_(rank * kBlock), all_(rank, meet), reductions_(all_) {}

  // Problem: this rank's blocks.
  int num_variables() const override { return kBlock; }
  int num_constraints() const override { return kBlock; }
  void GetBounds(VectorRef x_l, VectorRef x_u, VectorRef g_l, VectorRef g_u) const override {
    x_l = Mine(c_.x_l), x_u = Mine(c_.x_u), g_l = Mine(c_.g_l), g_u = Mine(c_.g_u);
  }
  void InitJacobian(qpm::SparseMatrix* jacobian) const override { jacobian->resize(0, 0); }
  bool EvalObjective(const ConstVectorRef& x, double* f) override {
    *f = reductions_.Sum(0.5 * (x - Mine(c_.a)).squaredNorm());
    return true;
  }
  bool EvalConstraints(const ConstVectorRef& x, VectorRef g) override {
    const Vector all = all_.Gather("gather x", x);
    for (int r = 0; r < kBlock; ++r) g[r] = Row(first_ + r, all);
    return true;
  }
  bool EvalGradient(const ConstVectorRef& x, VectorRef grad_f) override {
    grad_f = x - Mine(c_.a);
    return true;
  }
  bool EvalJacobian(const ConstVectorRef&, qpm::SparseMatrixView*) override { return false; }
  bool has_hessian() const override { return true; }
  qpm::DistributedModel* distributed() override { return this; }

  // DistributedModel. A slot keeps the whole x at which J was evaluated.
  const qpm::Reductions& reductions() const override { return reductions_; }
  int NewJacobianSlot() override {
    slots_.emplace_back();
    return static_cast<int>(slots_.size()) - 1;
  }
  bool EvalJacobian(const ConstVectorRef& x, int slot) override {
    slots_[slot] = all_.Gather("gather x", x);
    return true;
  }
  void JacobianTimes(int slot, const ConstVectorRef& v, VectorRef out) override {
    const Vector& at = slots_[slot];
    const Vector all = all_.Gather("J v", v);
    for (int r = 0; r < kBlock; ++r) {
      const int k = first_ + r;
      out[r] = FirstEntry(k, at) * all[k] + SecondEntry(k, at) * all[Next(k)];
    }
  }
  void JacobianTransposeTimes(int slot, const ConstVectorRef& w, VectorRef out) override {
    const Vector& at = slots_[slot];
    Vector part = Vector::Zero(kN);  // this rank's rows' terms, over all columns
    for (int r = 0; r < kBlock; ++r) {
      const int k = first_ + r;
      part[k] += FirstEntry(k, at) * w[r];
      part[Next(k)] += SecondEntry(k, at) * w[r];
    }
    out = Mine(all_.SumOfParts("J^T w", part));
  }
  void JacobianTransposeTimesAdd(int slot, double alpha, const ConstVectorRef& w,
                                 VectorRef out) override {
    Vector product(out.size());
    JacobianTransposeTimes(slot, w, product);
    out += alpha * product;
  }
  void AddJacobianColumnSquares(int slot, double alpha, VectorRef out) override {
    Vector squares(out.size());
    JacobianColumnSquares(slot, squares);
    out += alpha * squares;
  }
  void JacobianColumnSquares(int slot, VectorRef out) {
    const Vector& at = slots_[slot];
    Vector part = Vector::Zero(kN);
    for (int r = 0; r < kBlock; ++r) {
      const int k = first_ + r;
      part[k] += std::pow(FirstEntry(k, at), 2);
      part[Next(k)] += std::pow(SecondEntry(k, at), 2);
    }
    out = Mine(all_.SumOfParts("column squares", part));
  }
  void JacobianRowSquares(int slot, VectorRef out) override {
    const Vector& at = slots_[slot];
    for (int r = 0; r < kBlock; ++r) {
      const int k = first_ + r;
      out[r] = std::pow(FirstEntry(k, at), 2) + std::pow(SecondEntry(k, at), 2);
    }
  }
  bool EvalHessian(const ConstVectorRef&, double sigma, const ConstVectorRef& lambda) override {
    w_ = HessianOf(sigma, all_.Gather("gather lambda", lambda));
    return true;
  }
  void HessianTimes(const ConstVectorRef& v, VectorRef out) override {
    const Vector all = all_.Gather("W v", v);
    for (int r = 0; r < kBlock; ++r) {
      const int i = first_ + r, h = Previous(i);
      out[r] = w_.diagonal[i] * all[i] + w_.upper[i] * all[Next(i)] + w_.upper[h] * all[h];
    }
  }
  void HessianDiagonal(VectorRef d) override { d = Mine(w_.diagonal); }

 private:
  Vector Mine(const Vector& whole) const { return whole.segment(first_, kBlock); }

  const Chain& c_;
  int first_;
  Collectives all_;
  TwoRankReductions reductions_;
  std::vector<Vector> slots_;
  Hessian w_;
};

struct RankRun {
  qpm::Summary summary;
  std::string broken;  // why the rendezvous broke, or empty
};

// The SPMD solve: rank 1 on a thread of its own, rank 0 on this one.
std::array<RankRun, 2> SolveOnTwoRanks(const Chain& chain, const qpm::Options& options) {
  Rendezvous meet(kTimeout);
  std::array<RankRun, 2> runs;
  auto run = [&](int rank) {
    FakeRank model(chain, rank, &meet);
    try {
      runs[rank].summary = qpm::Solve(&model, chain.x0.segment(rank * kBlock, kBlock), options);
    } catch (const std::exception& e) {
      runs[rank].broken = e.what();
    }
    meet.Leave(rank);
  };
  std::thread rank1(run, 1);
  run(0);
  rank1.join();
  return runs;
}

// Status first (the same on both ranks, as every count), then each rank's
// blocks against the serial solve's and against x*.
void CheckAgainstSerial(const std::array<RankRun, 2>& runs, const qpm::Summary& serial,
                        const Chain& chain, double tol) {
  for (int rank = 0; rank < 2; ++rank) {
    BOOST_REQUIRE_MESSAGE(runs[rank].broken.empty(),
                          "rank " << rank << " stopped: " << runs[rank].broken);
  }
  const qpm::Summary& s0 = runs[0].summary;
  const qpm::Summary& s1 = runs[1].summary;
  BOOST_TEST(s0.termination == qpm::TerminationType::kConverged);
  BOOST_TEST(s1.termination == s0.termination);
  BOOST_TEST(s1.outer_iterations == s0.outer_iterations);
  BOOST_TEST(s1.inner_iterations == s0.inner_iterations);
  BOOST_TEST(s1.hess_products == s0.hess_products);
  BOOST_TEST(s1.f == s0.f);  // one Sum, bitwise the same on both ranks
  BOOST_TEST(s1.c_norm == s0.c_norm);
  BOOST_TEST(s1.preconditioner == s0.preconditioner);
  BOOST_TEST_MESSAGE("two ranks: " << s0.BriefReport());
  BOOST_TEST_MESSAGE("serial:    " << serial.BriefReport());

  BOOST_REQUIRE(serial.termination == qpm::TerminationType::kConverged);
  BOOST_TEST((serial.x - chain.x_star).lpNorm<Eigen::Infinity>() <= tol);
  for (int rank = 0; rank < 2; ++rank) {
    BOOST_TEST_CONTEXT("rank " << rank) {
      const qpm::Summary& s = runs[rank].summary;
      BOOST_REQUIRE(s.x.size() == kBlock);
      BOOST_TEST((s.x - serial.x.segment(rank * kBlock, kBlock)).lpNorm<Eigen::Infinity>() <= tol);
      BOOST_TEST((s.x - chain.x_star.segment(rank * kBlock, kBlock)).lpNorm<Eigen::Infinity>() <= tol);
      BOOST_TEST((s.lambda - chain.lambda_star.segment(rank * kBlock, kBlock)).lpNorm<Eigen::Infinity>() <=
                 100 * tol);
    }
  }
  BOOST_TEST(std::abs(s0.f - serial.f) <= tol * std::max(1.0, std::abs(chain.f_star)));
  BOOST_TEST(std::abs(s0.f - chain.f_star) <= tol * std::max(1.0, std::abs(chain.f_star)));
}

}  // namespace

BOOST_AUTO_TEST_CASE(RendezvousReportsUnpairedCallsInsteadOfHanging) {
  const auto both = [](Rendezvous* meet, auto rank0, auto rank1) {
    std::array<std::string, 2> broken;
    auto run = [&](int rank) {
      try {
        rank == 0 ? rank0() : rank1();
      } catch (const Broken& e) {
        broken[rank] = e.what();
      }
      meet->Leave(rank);
    };
    std::thread other(run, 1);
    run(0);
    other.join();
    return broken;
  };
  const Vector one = Vector::Ones(1);
  {  // different calls
    Rendezvous meet(kTimeout);
    const auto broken = both(&meet, [&] { meet.Exchange(0, "Sum", one); },
                             [&] { meet.Exchange(1, "Max", one); });
    BOOST_TEST(broken[0] == broken[1]);
    BOOST_TEST(broken[0].find("called Sum") != std::string::npos);
    BOOST_TEST(broken[0].find("called Max") != std::string::npos);
  }
  {  // one call more on rank 1
    Rendezvous meet(kTimeout);
    const auto broken = both(&meet, [&] { meet.Exchange(0, "Sum", one); }, [&] {
      meet.Exchange(1, "Sum", one);
      meet.Exchange(1, "Sum", one);
    });
    BOOST_TEST(broken[0].empty());
    BOOST_TEST(broken[1].find("rank 0's solve had returned") != std::string::npos);
  }
  {  // no partner in time: rank 0 is busy elsewhere
    Rendezvous meet(std::chrono::milliseconds(100));
    const auto broken = both(
        &meet, [&] { std::this_thread::sleep_for(std::chrono::milliseconds(500)); },
        [&] { meet.Exchange(1, "Sum", one); });
    BOOST_TEST(broken[1].find("made no call within 100 ms") != std::string::npos);
  }
  {  // paired calls: each rank gets the other's values, the sum in rank order
    Rendezvous meet(kTimeout);
    double sums[2] = {0.0, 0.0};
    both(&meet, [&] { sums[0] = TwoRankReductions(Collectives(0, &meet)).Sum(0.1); },
         [&] { sums[1] = TwoRankReductions(Collectives(1, &meet)).Sum(0.2); });
    BOOST_TEST(sums[0] == 0.1 + 0.2);
    BOOST_TEST(sums[1] == 0.1 + 0.2);
  }
}

BOOST_AUTO_TEST_CASE(SolvesAChainSplitOverTwoRanksAsTheSerialSolveDoes) {
  const Chain chain = MakeChain();
  for (qpm::PreconditionerKind preconditioner :
       {qpm::Options().tr.preconditioner, qpm::PreconditionerKind::kNone}) {
    const bool none = preconditioner == qpm::PreconditionerKind::kNone;
    BOOST_TEST_CONTEXT("preconditioner " << (none ? "none" : "auto")) {
      qpm::Options options;  // the defaults: multipliers mode, trust region
      options.tr.preconditioner = preconditioner;
      SerialChain serial_model(chain);
      const qpm::Summary serial = qpm::Solve(&serial_model, chain.x0, options);
      CheckAgainstSerial(SolveOnTwoRanks(chain, options), serial, chain, 1e-6);
    }
  }
}

BOOST_AUTO_TEST_CASE(SolvesTheSplitChainInThePapersModeWithTheTrustRegion) {
  const Chain chain = MakeChain();
  qpm::Options options;
  options.mode = qpm::Mode::kPaper;
  options.inner_solver = qpm::InnerSolverType::kTrustRegion;
  // At the default 1e-8 the pure penalty needs beta ~ 5e7, where the serial
  // solve and the two ranks alike stall at the acceptable level.
  options.paper.feasibility_tol = 1e-7;
  options.paper.stationarity_tol = 1e-7;
  SerialChain serial_model(chain);
  const qpm::Summary serial = qpm::Solve(&serial_model, chain.x0, options);
  CheckAgainstSerial(SolveOnTwoRanks(chain, options), serial, chain, 1e-6);
}

BOOST_AUTO_TEST_CASE(RefusesOtherInnerSolversOnBothRanks) {
  const Chain chain = MakeChain();
  for (qpm::InnerSolverType inner :
       {qpm::InnerSolverType::kLbfgs, qpm::InnerSolverType::kGradientDescent}) {
    BOOST_TEST_CONTEXT(qpm::ToString(inner)) {
      qpm::Options options;
      options.inner_solver = inner;
      const std::array<RankRun, 2> runs = SolveOnTwoRanks(chain, options);
      for (int rank = 0; rank < 2; ++rank) {
        BOOST_REQUIRE_MESSAGE(runs[rank].broken.empty(), runs[rank].broken);
        BOOST_TEST(runs[rank].summary.termination == qpm::TerminationType::kInvalidOptions);
        BOOST_TEST((runs[rank].summary.x - chain.x0.segment(rank * kBlock, kBlock)).norm() == 0.0);
      }
    }
  }
}

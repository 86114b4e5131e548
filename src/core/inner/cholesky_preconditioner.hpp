// The Newton preconditioner M = H_F + delta I: H = W + beta J_z^T J_z
// assembled on a pattern fixed for the solve and factored by a sparse
// Cholesky (core/linalg/sparse_cholesky.hpp). With delta = 0 and the whole
// space free, CG's first iterate is the Newton step -H^{-1} g (cut at the
// ball), and CG stops there.
//
// Faces. On a face F of the active-set step (the entries off F fixed on
// their bounds), M is H with the rows and columns off F replaced by those of
// the identity, so that M^{-1} restricted to F is (H_FF + delta I)^{-1}.
// Within a step the faces shrink: a face F inside the factored one F0 pins
// the entries D = F0 \ F by the Schur complement of the factor,
//   M_F^{-1} r = M^{-1} r - Y S^{-1} Y^T r,  Y = M^{-1} E_D,  S = E_D^T Y,
// exact on F (its entries on D are 0), for one solve per pinned entry, while
// that costs less than a factorization: |D| <= flops / (4 nnz(L)). Any other
// face is factored only when enough entries changed status since the
// factored one: CG with the old factor pays at most two iterations (two
// solves, 4 nnz(L) flops each) per changed entry, a new factorization its
// analysed flops; the cheaper is taken. Any factored face gives an SPD M on
// the current one, so CG stays correct either way.
//
// Inertia. When H_F is not positive definite, the shift delta follows
// Ipopt's inertia correction (Waechter & Biegler 2006, Sec. 3.1): the first
// trial 0, then delta_0 = 1e-4 (or a third of the last delta that worked,
// but at least 1e-8 max(1, max |W_ij|): a smaller shift only makes M
// singular to rounding; W's scale, not H's, as the shift corrects W's
// inertia; the interior steps set a lower floor, set_shift_floor), times 100 on the first failures of a solve and 8 afterwards.
// Unlike Ipopt, the trial at 0 is skipped while the last factorization
// needed a shift whose third is still above that floor: the next one starts
// at the third, and 0 is tried again once the shifts have decayed to the
// floor. A new face or Hessian is a small change of H, and a failed
// factorization costs nearly a full one (docs/algorithm.md, "The Newton
// path: a sparse Cholesky of W + beta J_z^T J_z", Inertia). The decayed
// shift is fixed per point (StepShift), and the trust region's model there
// is H + sigma I (same place, "The shifted model"). Without a box the
// trust region may lower that shift while the shifted Newton step stays
// inside its ball (LowerStepShift; docs/algorithm.md, "The lowered shift").
//
// Reuse. Update keeps an unshifted factor (the trust region's, or the
// multiplier step's on its face) when the assembled H is bit for bit the
// one it was made from (a quadratic objective with linear constraints at an
// unchanged beta): no new factorization, and the point's shift is 0. The
// multiplier step's EvaluateAndFactor keeps it the same way when its face
// is the factor's. A shifted one is not kept: its shift decays at the next
// point, as above (docs/algorithm.md, same section, "Reuse").
#ifndef QPM_CORE_INNER_CHOLESKY_PRECONDITIONER_HPP_
#define QPM_CORE_INNER_CHOLESKY_PRECONDITIONER_HPP_

#include <vector>

#include "core/inner/preconditioner.hpp"

namespace qpm {

class CholeskyPreconditioner : public Preconditioner, public FaceSolve {
 public:
  // Builds H's pattern from W's and J's and analyses it.
  CholeskyPreconditioner(AssembledPenalty q, const SparseMatrix& jacobian_pattern);

  // An upper bound on nnz(J_z^T J_z) from J's pattern, in O(nnz(J)): a row
  // with k entries adds at most k (k + 1) / 2 to the lower triangle.
  static double ProductBound(const AssembledPenalty& q, const SparseMatrix& jacobian_pattern);

  const FactorCost& cost() const { return cost_; }
  PreconditionerKind kind() const override { return PreconditionerKind::kCholesky; }
  bool exact() const override { return true; }
  bool Update(const Iterate& it) override;
  void Apply(const Vector& r, const Vector* free, Vector* z) override;
  FaceSolve* LendFactorization() override { return this; }
  const SymmetricColumns* Assembled() const override { return columns_.get(); }
  bool EvaluateAndFactor(const Iterate& x, const Vector& free) override;
  void Solve(const Vector& r, Vector* z) override { cholesky_->Solve(r, z); }
  void HoldFace(bool hold) override { hold_face_ = hold; }
  double StepShift() override;
  double LowerStepShift(const Vector& g, double radius, int trials, double factor) override;
  bool Shifted() const override { return factored_ && last_shifted_; }
  // Assembles H at `it` and factors H + diag(d) + delta I on the whole
  // space, delta by the inertia rule above (the interior step,
  // inner/barrier_newton.hpp); false when no delta up to the limit works.
  bool FactorWithDiagonal(const Iterate& it, const Vector& d);
  double applied_shift() const { return last_shifted_ ? last_delta_ : 0.0; }
  // z solving the factored matrix (as factored, with its shift) for r, with
  // iterative refinement; the residual's ratio ||H z - r|| / (||z|| + ||r||)
  // (max-norms, Ipopt's). A ratio far above rounding says the factor is
  // numerically singular. `residual`, `correction`: n-sized work space.
  double SolveRefined(const Vector& r, Vector* z, Vector* residual, Vector* correction);
  // Factors the same matrix again with a larger shift (after SolveRefined
  // found it singular); false when none up to the limit works.
  bool FactorWithLargerShift();
  // The shift's floor relative to max(1, max |W_ij|) (1e-8 by default,
  // the trust region's): the interior steps lower it (barrier_newton.hpp).
  void set_shift_floor(double relative) { min_shift_ = relative; }

 private:
  void BuildPattern(const SparseMatrix& jacobian_pattern);
  void Assemble(const Iterate& it);
  void FillFace(const Vector* free);
  bool FactorFace(const Vector* free);
  bool FaceChanged(const Vector& free) const;
  bool PinnedOffFace(const Vector* free) const;
  bool Pin(const Vector& free);
  void ReservePins();
  void KeepPinned(const Vector& free);
  bool FactorSchur();
  void RemovePinned(Vector* z);
  bool FactorWithShift();
  bool FactorFromShift(double delta, double growth);
  void KeepFactoredValues();  // factored_values_ <- h_'s (Reuse)
  bool FactorStands() const;  // an unshifted factor of h_'s values (Reuse)
  double CurvatureScale() const;
  double NewtonStepNorm(const Vector& g);
  void KeepShift(double delta);
  int ChangedEntries(const Vector* free) const;

  AssembledPenalty q_;
  std::unique_ptr<SparseCholesky> cholesky_;
  FactorCost cost_;
  LowerMatrix h_;       // H's lower triangle (values of the last Update)
  std::unique_ptr<SymmetricColumns> columns_;  // h_'s, when the problem has bounds
  LowerMatrix face_;    // h_ with the entries off the factored face made I's
  std::vector<int> w_slot_;      // slot in h_ of each stored entry of W
  std::vector<int> pair_slot_;   // slot of each pair (a >= b) of entries in a row of J_z
  std::vector<int> diag_slot_;   // slot of H_ii
  std::vector<int> column_of_;   // column of each slot
  Vector factored_free_;         // the face of the current factor (1 free, 0 fixed)
  Vector served_;                // the face of the last Apply
  // Pinning (Faces above): the pinned entries, their columns M^{-1} e_i
  // (n x max_pinned_), S's Cholesky factor (leading block), and work space.
  int max_pinned_ = 1;
  std::vector<int> pinned_, wanted_;
  Eigen::MatrixXd pinned_solves_, schur_;
  Vector pinned_values_, unit_, column_;
  double min_shift_ = 1e-8;      // delta_w^min, relative to max(1, max |W_ij|)
  double last_delta_ = 0.0;      // last nonzero shift that worked (Ipopt's delta_w^last)
  bool last_shifted_ = false;    // the last factorization needed that shift
  double step_shift_ = 0.0;      // StepShift's: the first shift each factorization tries
  Vector newton_step_;           // LowerStepShift's work space
  Vector factored_values_;       // h_'s values when the current factor (if factored_) was made
  bool factor_unshifted_ = false; // the current factor was made without a shift
  bool reused_ = false;           // the last Update kept the factor
  bool factored_ = false;       // the factor of face_ is valid
  bool stale_ = true;           // h_ changed since the last factorization
  bool hold_face_ = false;      // Preconditioner::HoldFace
};

}  // namespace qpm

#endif  // QPM_CORE_INNER_CHOLESKY_PRECONDITIONER_HPP_

// A model whose vectors are split over processes (SPMD): each process holds
// a block of x and a block of the constraint rows, and the same solver runs
// on every process over its own blocks (docs/petsc.md, "Distributed models"). What the
// solver cannot form from its own blocks, the model gives:
//
//  - reductions: sums and maxima over all processes, which every dot
//    product, norm and count of the solver goes through, so that every
//    process takes the same decisions;
//  - J and W as operators: J's rows span columns held elsewhere, so the
//    solver never holds J's entries; it asks the model for J v, J^T w and
//    W v (collective calls, e.g. PETSc's MatMult), never forming J^T J.
//
// Problem::EvalJacobian and the Hessian's pattern are then unused: the
// model's InitJacobian may leave the pattern empty. Every call below is
// collective: each process calls it, in the same order.
#ifndef QPM_CORE_DISTRIBUTED_HPP_
#define QPM_CORE_DISTRIBUTED_HPP_

#include "qpm/core/problem.hpp"

namespace qpm {

// Sums and maxima of one double over all processes (the identity on one).
class Reductions {
 public:
  virtual ~Reductions() = default;
  virtual double Sum(double local) const = 0;
  virtual double Max(double local) const = 0;
  double Min(double local) const { return -Max(-local); }
  bool Any(bool local) const { return Max(local ? 1.0 : 0.0) > 0.0; }
};

// The reductions of one process alone.
const Reductions& SerialReductions();

class DistributedModel {
 public:
  virtual ~DistributedModel() = default;

  virtual const Reductions& reductions() const = 0;

  // J(x) is kept by the model in slots, one per point the solver holds
  // (a handful per solve). NewJacobianSlot returns a new slot's id.
  virtual int NewJacobianSlot() = 0;
  virtual bool EvalJacobian(const ConstVectorRef& x, int slot) = 0;
  virtual void JacobianTimes(int slot, const ConstVectorRef& v, VectorRef out) = 0;  // J v
  virtual void JacobianTransposeTimes(int slot, const ConstVectorRef& w, VectorRef out) = 0;  // J^T w
  // out += alpha J^T w, without an x-sized temporary.
  virtual void JacobianTransposeTimesAdd(int slot, double alpha, const ConstVectorRef& w,
                                         VectorRef out) = 0;
  // Per local column i of J: out_i += alpha sum over the rows of J_ri^2
  // (alpha times the diagonal of J^T J).
  virtual void AddJacobianColumnSquares(int slot, double alpha, VectorRef out) = 0;
  // Per local row r of J: sum over the columns of J_ri^2 (the diagonal of J J^T).
  virtual void JacobianRowSquares(int slot, VectorRef out) = 0;

  // W(x, sigma, lambda), kept by the model until the next call.
  virtual bool EvalHessian(const ConstVectorRef& x, double sigma, const ConstVectorRef& lambda) = 0;
  virtual void HessianTimes(const ConstVectorRef& v, VectorRef out) = 0;
  virtual void HessianDiagonal(VectorRef d) = 0;

  // A preconditioner M of the Hessian of Q on x's block that the model
  // brings (a PETSc PC the user chose), in place of the core's Jacobi:
  // rebuilt after each evaluation of W (false: none could be formed), and
  // z = M^{-1} r, symmetric positive definite. None by default.
  virtual bool has_preconditioner() const { return false; }
  virtual bool UpdatePreconditioner(double /*beta*/) { return false; }
  virtual void ApplyPreconditioner(const ConstVectorRef& /*r*/, VectorRef /*z*/) {}
};

}  // namespace qpm

#endif  // QPM_CORE_DISTRIBUTED_HPP_

// A dense Jacobian block (MATMPIDENSE) on several processes, kept by
// columns: each process holds, for every row, the entries of its own
// columns (those of its part of x), so that products exchange row-sized
// vectors only, never x (why: docs/petsc.md, "What qpm reads from TAO").
#ifndef QPM_PETSC_DENSE_COLUMNS_HPP_
#define QPM_PETSC_DENSE_COLUMNS_HPP_

#include <petscmat.h>

#include <Eigen/Core>
#include <vector>

namespace qpm {
namespace petsc {

class DenseColumns {
 public:
  // A MATMPIDENSE matrix on a communicator of more than one process.
  static bool Serves(Mat j);

  // Takes j's entries (after the user's Jacobian routine filled it): one
  // MPI_Scatterv per row from its owner. Collective.
  PetscErrorCode Refresh(Mat j);
  // y = J v; v in the layout of J's columns, y in that of its rows. Collective.
  PetscErrorCode Multiply(Vec v, Vec y);
  // out += J^T w. Collective.
  PetscErrorCode MultiplyTransposeAdd(Vec w, Vec out);
  // out_j += alpha sum_i J_ij^2 over this process's columns j.
  void AddColumnSquares(double alpha, double* out) const;
  // out_i = sum_j J_ij^2 over this process's rows i. Collective.
  PetscErrorCode RowSquares(double* out);
  // The entries this process holds (its columns of every row).
  Eigen::Index entries() const { return columns_.size(); }

 private:
  PetscErrorCode Layout(Mat j);  // row and column ranges, storage

  MPI_Comm comm_ = MPI_COMM_NULL;
  Eigen::MatrixXd columns_;  // local columns x all rows: column i is row i's entries here
  Eigen::VectorXd rows_;     // row-space work: a product's partial sums, or all of w
  std::vector<PetscMPIInt> row_counts_, row_starts_, column_counts_, column_starts_;
  PetscInt first_row_ = 0, local_rows_ = 0;
};

}  // namespace petsc
}  // namespace qpm

#endif  // QPM_PETSC_DENSE_COLUMNS_HPP_

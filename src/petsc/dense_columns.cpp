#include "petsc/dense_columns.hpp"

#include <algorithm>

namespace qpm {
namespace petsc {

namespace {

// Counts and displacements of a layout's ranges, as MPI's v-collectives take them.
void Ranges(const PetscInt* ranges, PetscMPIInt size, std::vector<PetscMPIInt>* counts,
            std::vector<PetscMPIInt>* starts) {
  counts->resize(size);
  starts->resize(size);
  for (PetscMPIInt p = 0; p < size; ++p) {
    (*counts)[p] = static_cast<PetscMPIInt>(ranges[p + 1] - ranges[p]);
    (*starts)[p] = static_cast<PetscMPIInt>(ranges[p]);
  }
}

}  // namespace

bool DenseColumns::Serves(Mat j) {
  PetscBool dense = PETSC_FALSE;
  PetscMPIInt size = 1;
  if (!j || PetscObjectTypeCompare(reinterpret_cast<PetscObject>(j), MATMPIDENSE, &dense)) {
    return false;
  }
  MPI_Comm_size(PetscObjectComm(reinterpret_cast<PetscObject>(j)), &size);
  return dense && size > 1;
}

PetscErrorCode DenseColumns::Layout(Mat j) {
  const PetscInt *rows, *columns;
  PetscInt m, local_columns;
  PetscMPIInt size;
  PetscFunctionBeginUser;
  comm_ = PetscObjectComm(reinterpret_cast<PetscObject>(j));
  PetscCallMPI(MPI_Comm_size(comm_, &size));
  PetscCall(MatGetOwnershipRanges(j, &rows));
  PetscCall(MatGetOwnershipRangesColumn(j, &columns));
  PetscCall(MatGetSize(j, &m, nullptr));
  PetscCall(MatGetOwnershipRange(j, &first_row_, nullptr));
  PetscCall(MatGetLocalSize(j, &local_rows_, &local_columns));
  Ranges(rows, size, &row_counts_, &row_starts_);
  Ranges(columns, size, &column_counts_, &column_starts_);
  if (columns_.rows() != local_columns || columns_.cols() != m) columns_.resize(local_columns, m);
  rows_.resize(m);
  PetscFunctionReturn(0);
}

// The owner's local block is column-major (leading dimension lda) over all
// global columns; a type of one entry with an extent of lda entries walks
// one row of it, so each row travels without being packed first.
PetscErrorCode DenseColumns::Refresh(Mat j) {
  const PetscScalar* a;
  PetscInt lda;
  MPI_Datatype entry;
  PetscFunctionBeginUser;
  PetscCall(Layout(j));
  PetscCall(MatDenseGetLDA(j, &lda));
  PetscCall(MatDenseGetArrayRead(j, &a));
  PetscCallMPI(MPI_Type_create_resized(MPIU_SCALAR, 0, static_cast<MPI_Aint>(lda * sizeof(PetscScalar)),
                                       &entry));
  PetscCallMPI(MPI_Type_commit(&entry));
  for (PetscMPIInt owner = 0, row = 0; owner < static_cast<PetscMPIInt>(row_counts_.size()); ++owner) {
    for (PetscMPIInt k = 0; k < row_counts_[owner]; ++k, ++row) {
      const bool mine = row >= first_row_ && row < first_row_ + local_rows_;
      const PetscScalar* from = mine ? a + (row - first_row_) : nullptr;
      PetscCallMPI(MPI_Scatterv(from, column_counts_.data(), column_starts_.data(), entry,
                                columns_.col(row).data(), static_cast<PetscMPIInt>(columns_.rows()),
                                MPIU_SCALAR, owner, comm_));
    }
  }
  PetscCallMPI(MPI_Type_free(&entry));
  PetscCall(MatDenseRestoreArrayRead(j, &a));
  PetscFunctionReturn(0);
}

// Each process's partial sums over its columns, summed onto the rows' owners.
PetscErrorCode DenseColumns::Multiply(Vec v, Vec y) {
  const PetscScalar* x;
  PetscScalar* out;
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(v, &x));
  rows_.noalias() = columns_.transpose() * Eigen::Map<const Eigen::VectorXd>(x, columns_.rows());
  PetscCall(VecRestoreArrayRead(v, &x));
  PetscCall(VecGetArrayWrite(y, &out));
  PetscCallMPI(MPI_Reduce_scatter(rows_.data(), out, row_counts_.data(), MPIU_SCALAR, MPIU_SUM, comm_));
  PetscCall(VecRestoreArrayWrite(y, &out));
  PetscFunctionReturn(0);
}

// All of w on every process, then each process's columns of J^T w.
PetscErrorCode DenseColumns::MultiplyTransposeAdd(Vec w, Vec out) {
  const PetscScalar* in;
  PetscScalar* y;
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(w, &in));
  PetscCallMPI(MPI_Allgatherv(in, static_cast<PetscMPIInt>(local_rows_), MPIU_SCALAR, rows_.data(),
                              row_counts_.data(), row_starts_.data(), MPIU_SCALAR, comm_));
  PetscCall(VecRestoreArrayRead(w, &in));
  PetscCall(VecGetArray(out, &y));
  Eigen::Map<Eigen::VectorXd>(y, columns_.rows()).noalias() += columns_ * rows_;
  PetscCall(VecRestoreArray(out, &y));
  PetscFunctionReturn(0);
}

void DenseColumns::AddColumnSquares(double alpha, double* out) const {
  Eigen::Map<Eigen::VectorXd>(out, columns_.rows()) += alpha * columns_.rowwise().squaredNorm();
}

PetscErrorCode DenseColumns::RowSquares(double* out) {
  PetscFunctionBeginUser;
  rows_ = columns_.colwise().squaredNorm().transpose();
  PetscCallMPI(MPI_Reduce_scatter(rows_.data(), out, row_counts_.data(), MPIU_SCALAR, MPIU_SUM, comm_));
  PetscFunctionReturn(0);
}

}  // namespace petsc
}  // namespace qpm

// Configure-time probe for a GCC 12.2 loop-vectorizer bug (see meson.build):
// at -O3 the inner loop below, whose trip count is `split ? 2 : 1`, is only
// compiled for 2 iterations and skipped for 1 (or g++ crashes in pass vect).
// It is the shape of DenseTnlp::eval_jac_g in models/test_problems.hpp.
// Exit code 0: compiled correctly.
#include <cstdlib>

struct Matrix {
  double* data;
  long rows;
  double operator()(long r, long c) const { return data[r + c * rows]; }
};

struct Model {
  bool split;
  __attribute__((noinline)) Matrix Jacobian() const {
    Matrix d{static_cast<double*>(std::malloc(8 * sizeof(double))), 2};
    for (int i = 0; i < 8; ++i) d.data[i] = i + 1;
    return d;
  }
  __attribute__((noinline)) void Values(int n, int m, double* values) const {
    const Matrix d = Jacobian();
    const int copies = split ? 2 : 1;
    for (int r = 0, k = 0; r < m; ++r)
      for (int c = 0; c < n; ++c)
        for (int s = 0; s < copies; ++s, ++k) values[k] = d(r, c) / copies;
    std::free(d.data);
  }
};

int main() {
  double values[8] = {};
  Model{false}.Values(4, 2, values);
  return values[0] == 1 && values[1] == 3 && values[7] == 8 ? 0 : 1;
}

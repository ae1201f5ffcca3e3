//===- RankGrid.cpp - where the ranks of a --ranks run lie on the grid ----===//

#include "RankGrid.h"

using namespace moert;

namespace moe_runner {

RankGrid RankGrid::of(const ArtifactSpec &spec) {
  RankGrid grid;
  const int64_t world = spec.worldSize();
  for (size_t g = 0; g < spec.grids.size(); ++g) {
    int64_t points = 1;
    for (int64_t d : spec.grids[g].shape)
      points *= d;
    if (points == world) {
      grid.index = static_cast<int64_t>(g);
      grid.shape = spec.grids[g].shape;
      break;
    }
  }
  return grid;
}

int64_t RankGrid::ranks() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::vector<int64_t> RankGrid::coordinates(int64_t rank) const {
  std::vector<int64_t> c(shape.size());
  for (size_t a = shape.size(); a-- > 0;) {
    c[a] = rank % shape[a];
    rank /= shape[a];
  }
  return c;
}

std::vector<int64_t> RankGrid::axesOrAll(const std::vector<int64_t> &axes) const {
  std::vector<int64_t> chosen;
  if (axes.empty()) {
    for (size_t a = 0; a < shape.size(); ++a)
      chosen.push_back(static_cast<int64_t>(a));
    return chosen;
  }
  // In the order of `axes`: a split's shards are numbered row-major in it.
  for (int64_t a : axes)
    if (a >= 0 && a < static_cast<int64_t>(shape.size()))
      chosen.push_back(a);
  return chosen;
}

int64_t RankGrid::shards(const std::vector<int64_t> &axes) const {
  int64_t n = 1;
  for (int64_t a : axesOrAll(axes))
    n *= shape[static_cast<size_t>(a)];
  return n;
}

int64_t RankGrid::shardOf(int64_t rank, const std::vector<int64_t> &axes) const {
  std::vector<int64_t> c = coordinates(rank);
  int64_t s = 0;
  for (int64_t a : axesOrAll(axes))
    s = s * shape[static_cast<size_t>(a)] + c[static_cast<size_t>(a)];
  return s;
}

bool RankGrid::atOrigin(int64_t rank, const std::vector<int64_t> &axes) const {
  std::vector<int64_t> c = coordinates(rank);
  for (int64_t a : axesOrAll(axes))
    if (c[static_cast<size_t>(a)] != 0)
      return false;
  return true;
}

std::vector<int64_t> RankGrid::axisGroup(int64_t rank, int64_t axis) const {
  // Row-major: moving along `axis` changes the rank by the product of the
  // sizes of the axes after it.
  int64_t stride = 1;
  for (size_t a = static_cast<size_t>(axis) + 1; a < shape.size(); ++a)
    stride *= shape[a];
  const int64_t first = rank - coordinates(rank)[static_cast<size_t>(axis)] * stride;
  std::vector<int64_t> group;
  for (int64_t i = 0; i < shape[static_cast<size_t>(axis)]; ++i)
    group.push_back(first + i * stride);
  return group;
}

int64_t RankGrid::axisGroupIndex(int64_t rank, int64_t axis) const {
  std::vector<int64_t> c = coordinates(rank);
  int64_t g = 0;
  for (size_t a = 0; a < shape.size(); ++a)
    if (static_cast<int64_t>(a) != axis)
      g = g * shape[a] + c[a];
  return g;
}

std::vector<int64_t> RankGrid::axisGroupFirsts(int64_t axis) const {
  // The ranks at coordinate 0 on `axis`, ascending: row-major over the
  // other coordinates, which is axisGroupIndex's order.
  std::vector<int64_t> firsts;
  for (int64_t rank = 0; rank < ranks(); ++rank)
    if (coordinates(rank)[static_cast<size_t>(axis)] == 0)
      firsts.push_back(rank);
  return firsts;
}

std::vector<int64_t> RankGrid::communicatorAxes() const {
  std::vector<int64_t> axes;
  for (size_t a = 0; a < shape.size(); ++a)
    if (shape[a] > 1 || ranks() == 1)
      axes.push_back(static_cast<int64_t>(a));
  return axes;
}

} // namespace moe_runner

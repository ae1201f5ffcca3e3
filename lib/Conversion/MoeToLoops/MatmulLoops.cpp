//===- MatmulLoops.cpp - moe.grouped_matmul, moe.grouped_weight_grad ------===//
//
// The CPU reference of the grouped matmuls, written literally after
// DESIGN.md ("Exact semantics"): group g covers rows [off_g, off_g + sizes[g])
// with off the exclusive prefix sum of the sizes, computed in i64.
//
// Bad sizes never cause an out-of-bounds access: a negative size counts as 0,
// and group ranges are clamped to the R rows of the buffers (a group that
// starts past R is empty, one that ends past R is cut at R). Products are
// accumulated in f32 in ascending order of the reduced index (kd for the
// matmul, the row r for the weight gradient), so results are deterministic.
//
//===----------------------------------------------------------------------===//
#include "LoopBuilder.h"
#include "LoopEmitters.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::moe::loops {

namespace {

/// Group g's size as i64, negative sizes counted as 0.
Value groupSize(OpBuilder &b, Location loc, Value sizes, Value g) {
  Value v = memref::LoadOp::create(b, loc, sizes, ValueRange{g});
  if (v.getType().getIntOrFloatBitWidth() != 64)
    v = arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
  return arith::MaxSIOp::create(b, loc, v, i64Const(b, loc, 0));
}

/// The row range [lo, hi) (index values) of a group spanning [off, end) in
/// i64, clamped to [0, numRows64].
void clampedRange(OpBuilder &b, Location loc, Value off, Value end,
                  Value numRows64, Value &lo, Value &hi) {
  lo = toIndex(b, loc, arith::MinSIOp::create(b, loc, off, numRows64));
  hi = toIndex(b, loc, arith::MinSIOp::create(b, loc, end, numRows64));
}

/// Runs `body(g, lo, hi)` for every group g of `sizes` (numGroups of them),
/// [lo, hi) its rows clamped to [0, numRows64]; returns Σ sizes (i64).
Value forEachGroup(
    OpBuilder &b, Location loc, Value sizes, Value numGroups, Value numRows64,
    function_ref<void(OpBuilder &, Location, Value g, Value lo, Value hi)> body) {
  return forReduce(
      b, loc, indexConst(b, loc, 0), numGroups, i64Const(b, loc, 0),
      [&](OpBuilder &gb, Location gloc, Value g, Value off) -> Value {
        Value end =
            arith::AddIOp::create(gb, gloc, off, groupSize(gb, gloc, sizes, g));
        Value lo, hi;
        clampedRange(gb, gloc, off, end, numRows64, lo, hi);
        body(gb, gloc, g, lo, hi);
        return end;
      });
}

/// Writes zero into rows [lo, hi) of a rank-2 buffer.
void zeroRows(OpBuilder &b, Location loc, Value buf, Value lo, Value hi) {
  Value cols = dimOf(b, loc, buf, 1);
  Value zero = f32Const(b, loc, 0.0);
  forRange(b, loc, lo, hi, [&](OpBuilder &nb, Location nloc, Value r) {
    forRange(nb, nloc, indexConst(nb, nloc, 0), cols,
             [&](OpBuilder &ib, Location iloc, Value n) {
               storeFromF32(ib, iloc, zero, buf, ValueRange{r, n});
             });
  });
}

/// Dequantization scale of an FP8 operand: a rank-0 scale (tensor-wise,
/// loaded once as `scalar`) or a block scale read at `blockIdx`.
struct Scale {
  Value buffer;
  Value scalar; ///< set for rank-0 scales
  Value at(OpBuilder &b, Location loc, ValueRange blockIdx) const {
    if (scalar)
      return scalar;
    return loadAsF32(b, loc, buffer, blockIdx);
  }
};

Scale makeScale(OpBuilder &b, Location loc, Value buffer) {
  Scale s{buffer, Value()};
  if (buffer && cast<MemRefType>(buffer.getType()).getRank() == 0)
    s.scalar = loadAsF32(b, loc, buffer, ValueRange{});
  return s;
}

} // namespace

//===----------------------------------------------------------------------===//
// moe.grouped_matmul
//===----------------------------------------------------------------------===//

// c[r, n] = Σ_kd A(r, kd) · B_g(kd, n) for r in group g, with
//   A(r, kd) = a[r, kd] (· a_scale, or a_scale[r, kd/128] for FP8),
//   B_g(kd, n) = b[g, kd, n] (kn) or b[g, n, kd] (nk)
//                (· b_scale, or b_scale[g, kd/128, n/128] (kn) /
//                   b_scale[g, n/128, kd/128] (nk) for FP8);
// the FP8 operands are dequantized element by element before the product.
// A group's B_g is dequantized once into an f32 panel (in b's storage order)
// and a row's A values once into a row buffer, each value as computed per
// term, so the sums are the same bits: decoding them for every product term
// made the FP8 GEMMs a large part of a layer's CPU reference.
// Rows past Σ sizes are zero. With `accumulate` c's own value is added to
// each row's sum before the one rounding, and rows past Σ sizes keep theirs.
namespace {

/// emitGroupedMatmul's loop nests, step by step; `panel` holds B_g ([kd, n]
/// for kn, [n, kd] for nk), `rowA` a row's A values.
class GroupedMatmulLoops {
public:
  GroupedMatmulLoops(OpBuilder &b, Location loc, WeightLayout layout, Value a,
                     Value bWeights, Value sizes, Value aScale, Value bScale,
                     Value c, GroupedMatmulOp withEpilogue, bool accumulate)
      : b(b), loc(loc), kn(layout == WeightLayout::KN), a(a),
        bWeights(bWeights), sizes(sizes), aScale(aScale), bScale(bScale),
        c(c), withEpilogue(withEpilogue), accumulate(accumulate),
        sa(makeScale(b, loc, aScale)), sb(makeScale(b, loc, bScale)) {
    depth = dimOf(b, loc, a, 1);
    // Columns of the product (b's N); c has as many, or half with gate|up
    // halves in the epilogue.
    width = dimOf(b, loc, bWeights, kn ? 2 : 1);
    // a's scales are block_1x128, b's block_128x128: one block edge.
    block = indexConst(
        b, loc, opmath::quantBlockShape(QuantRecipe::Block128x128)->cols);
    auto f32Vector = MemRefType::get({ShapedType::kDynamic}, b.getF32Type());
    if (kn || withEpilogue)
      rowAcc = memref::AllocOp::create(b, loc, f32Vector, ValueRange{width});
    rowA = memref::AllocOp::create(b, loc, f32Vector, ValueRange{depth});
    panelDim1 = dimOf(b, loc, bWeights, 1);
    panelDim2 = dimOf(b, loc, bWeights, 2);
    panel = memref::AllocOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                        b.getF32Type()),
        ValueRange{panelDim1, panelDim2});
  }

  void emit() {
    Value numRows = dimOf(b, loc, c, 0);
    Value numRows64 = toI64(b, loc, numRows);
    Value total = forEachGroup(
        b, loc, sizes, dimOf(b, loc, sizes, 0), numRows64,
        [&](OpBuilder &gb, Location gloc, Value g, Value lo, Value hi) {
          // An empty group's weights are not decoded.
          Value any = arith::CmpIOp::create(
              gb, gloc, arith::CmpIPredicate::ult, lo, hi);
          ifThen(gb, gloc, any, [&](OpBuilder &pb, Location ploc) {
            fillPanel(pb, ploc, g);
            forRange(pb, ploc, lo, hi,
                     [&](OpBuilder &rb, Location rloc, Value r) {
                       emitRow(rb, rloc, r);
                     });
          });
        });
    Value first =
        toIndex(b, loc, arith::MinSIOp::create(b, loc, total, numRows64));
    if (withEpilogue) {
      // Rows past the groups: the epilogue of zero accumulators.
      zeroRowAcc(b, loc);
      forRange(b, loc, first, numRows,
               [&](OpBuilder &rb, Location rloc, Value r) {
                 emitEpilogueRow(rb, rloc, withEpilogue, rowAcc, r, c);
               });
    } else if (!accumulate) {
      zeroRows(b, loc, c, first, numRows);
    }
    if (rowAcc)
      memref::DeallocOp::create(b, loc, rowAcc);
    memref::DeallocOp::create(b, loc, rowA);
    memref::DeallocOp::create(b, loc, panel);
  }

private:
  /// A(r, kd): a[r, kd], times its scale for FP8.
  Value loadA(OpBuilder &kb, Location kloc, Value r, Value kd) {
    Value av = loadAsF32(kb, kloc, a, ValueRange{r, kd});
    if (!aScale)
      return av;
    Value kdBlock = arith::DivUIOp::create(kb, kloc, kd, block);
    return arith::MulFOp::create(kb, kloc, av,
                                 sa.at(kb, kloc, ValueRange{r, kdBlock}));
  }

  /// B_g(kd, n): b[g, kd, n] (kn) or b[g, n, kd] (nk), times its block's
  /// scale for FP8.
  Value loadB(OpBuilder &kb, Location kloc, Value g, Value kd, Value n) {
    SmallVector<Value, 3> bIdx{g, kd, n};
    if (!kn)
      std::swap(bIdx[1], bIdx[2]);
    Value bv = loadAsF32(kb, kloc, bWeights, bIdx);
    if (!bScale)
      return bv;
    SmallVector<Value, 3> sIdx{g, arith::DivUIOp::create(kb, kloc, kd, block),
                               arith::DivUIOp::create(kb, kloc, n, block)};
    if (!kn)
      std::swap(sIdx[1], sIdx[2]);
    return arith::MulFOp::create(kb, kloc, bv, sb.at(kb, kloc, sIdx));
  }

  /// panel = B_g, in b's storage order.
  void fillPanel(OpBuilder &pb, Location ploc, Value g) {
    forRange(pb, ploc, indexConst(pb, ploc, 0), panelDim1,
             [&](OpBuilder &ib, Location iloc, Value i) {
               forRange(ib, iloc, indexConst(ib, iloc, 0), panelDim2,
                        [&](OpBuilder &jb, Location jloc, Value j) {
                          Value v = kn ? loadB(jb, jloc, g, i, j)
                                       : loadB(jb, jloc, g, j, i);
                          memref::StoreOp::create(jb, jloc, v, panel,
                                                  ValueRange{i, j});
                        });
             });
  }

  Value panelB(OpBuilder &kb, Location kloc, Value kd, Value n) {
    return memref::LoadOp::create(kb, kloc, panel,
                                  kn ? ValueRange{kd, n} : ValueRange{n, kd});
  }

  Value rowAValue(OpBuilder &kb, Location kloc, Value kd) {
    return memref::LoadOp::create(kb, kloc, rowA, ValueRange{kd});
  }

  void zeroRowAcc(OpBuilder &rb, Location rloc) {
    Value zero = f32Const(rb, rloc, 0.0);
    forRange(rb, rloc, indexConst(rb, rloc, 0), width,
             [&](OpBuilder &nb, Location nloc, Value n) {
               memref::StoreOp::create(nb, nloc, zero, rowAcc, ValueRange{n});
             });
  }

  /// c[r, n] = acc, or with `accumulate` c's value plus acc (one rounding).
  void storeRow(OpBuilder &sb, Location sloc, Value acc, Value r, Value n) {
    if (accumulate)
      acc = arith::AddFOp::create(
          sb, sloc, loadAsF32(sb, sloc, c, ValueRange{r, n}), acc);
    storeFromF32(sb, sloc, acc, c, ValueRange{r, n});
  }

  /// Row r of c: every c[r, n] sums its products over kd ascending from
  /// 0.0. With [G, Kd, N] weights a loop over kd inside the loop over n
  /// would read the weights N elements apart (one cache line per
  /// multiply-add: a minute for one mixtral-size forward), so that layout
  /// keeps one f32 accumulator per output column of the row in `rowAcc` and
  /// streams B_g row by row: the same additions in the same order as the
  /// [G, N, Kd] loop nest. With an epilogue, a row's accumulators wait in
  /// `rowAcc` until the epilogue maps them to c's row.
  void emitRow(OpBuilder &rb, Location rloc, Value r) {
    Value c0 = indexConst(rb, rloc, 0);
    forRange(rb, rloc, c0, depth, [&](OpBuilder &kb, Location kloc, Value kd) {
      memref::StoreOp::create(kb, kloc, loadA(kb, kloc, r, kd), rowA,
                              ValueRange{kd});
    });
    if (kn)
      accumulateRowByWeightRows(rb, rloc);
    else
      forRange(rb, rloc, c0, width, [&](OpBuilder &nb, Location nloc, Value n) {
        Value acc = forReduce(
            nb, nloc, indexConst(nb, nloc, 0), depth, f32Const(nb, nloc, 0.0),
            [&](OpBuilder &kb, Location kloc, Value kd, Value sum) -> Value {
              Value prod = arith::MulFOp::create(
                  kb, kloc, rowAValue(kb, kloc, kd), panelB(kb, kloc, kd, n));
              return arith::AddFOp::create(kb, kloc, sum, prod);
            });
        if (withEpilogue)
          memref::StoreOp::create(nb, nloc, acc, rowAcc, ValueRange{n});
        else
          storeRow(nb, nloc, acc, r, n);
      });
    if (withEpilogue) {
      emitEpilogueRow(rb, rloc, withEpilogue, rowAcc, r, c);
      return;
    }
    if (kn)
      forRange(rb, rloc, c0, width, [&](OpBuilder &nb, Location nloc, Value n) {
        storeRow(nb, nloc,
                 memref::LoadOp::create(nb, nloc, rowAcc, ValueRange{n}), r,
                 n);
      });
  }

  /// kn: rowAcc[n] = Σ_kd A(r, kd) · B_g(kd, n), kd ascending from 0.0.
  void accumulateRowByWeightRows(OpBuilder &rb, Location rloc) {
    zeroRowAcc(rb, rloc);
    forRange(rb, rloc, indexConst(rb, rloc, 0), depth,
             [&](OpBuilder &kb, Location kloc, Value kd) {
               Value av = rowAValue(kb, kloc, kd);
               forRange(kb, kloc, indexConst(kb, kloc, 0), width,
                        [&](OpBuilder &nb, Location nloc, Value n) {
                          Value sum = memref::LoadOp::create(
                              nb, nloc, rowAcc, ValueRange{n});
                          Value prod = arith::MulFOp::create(
                              nb, nloc, av, panelB(nb, nloc, kd, n));
                          memref::StoreOp::create(
                              nb, nloc, arith::AddFOp::create(nb, nloc, sum, prod),
                              rowAcc, ValueRange{n});
                        });
             });
  }

  OpBuilder &b;
  Location loc;
  bool kn;
  Value a, bWeights, sizes, aScale, bScale, c;
  GroupedMatmulOp withEpilogue;
  bool accumulate;
  Scale sa, sb;
  Value depth, width, block, rowAcc, rowA, panel, panelDim1, panelDim2;
};

} // namespace

void emitGroupedMatmul(OpBuilder &b, Location loc, WeightLayout layout, Value a,
                       Value bWeights, Value sizes, Value aScale, Value bScale,
                       Value c, GroupedMatmulOp withEpilogue, bool accumulate) {
  GroupedMatmulLoops(b, loc, layout, a, bWeights, sizes, aScale, bScale, c,
                     withEpilogue, accumulate)
      .emit();
}

// (c, c1, c2)[r, j] = epilogue(acc[j], (acc[N_c + j] for gate|up halves),
// (row_scale[r]), each epilogue input's [r, j]), each rounded to its
// destination's element type.
void emitEpilogueRow(OpBuilder &b, Location loc, GroupedMatmulOp withEpilogue,
                     Value rowAcc, Value r, Value c) {
  Value width = dimOf(b, loc, c, 1);
  forRange(
      b, loc, indexConst(b, loc, 0), width,
      [&](OpBuilder &nb, Location nloc, Value j) {
        SmallVector<Value, 3> args;
        args.push_back(memref::LoadOp::create(nb, nloc, rowAcc, ValueRange{j}));
        if (withEpilogue.getAccumulatorsPerOutput() == 2) {
          Value up = arith::AddIOp::create(nb, nloc, j, width);
          args.push_back(
              memref::LoadOp::create(nb, nloc, rowAcc, ValueRange{up}));
        }
        if (Value rowScale = withEpilogue.getRowScale())
          args.push_back(loadAsF32(nb, nloc, rowScale, ValueRange{r}));
        for (Value input : withEpilogue.getEpilogueInputs())
          args.push_back(loadAsF32(nb, nloc, input, ValueRange{r, j}));
        SmallVector<Value, 3> values = withEpilogue.cloneEpilogueAt(nb, args);
        storeFromF32(nb, nloc, values.front(), c, ValueRange{r, j});
        for (auto [value, extra] :
             llvm::zip(ArrayRef(values).drop_front(),
                       withEpilogue.getOuts().drop_front()))
          storeFromF32(nb, nloc, value, extra, ValueRange{r, j});
      });
}

//===----------------------------------------------------------------------===//
// moe.grouped_weight_grad
//===----------------------------------------------------------------------===//

// db[g, kd, n] (kn) or db[g, n, kd] (nk) = Σ_{r in group g} A(r, kd)·D(r, n),
// accumulated in f32 over r ascending from 0.0: an empty group gets exactly
// zero. A(r, kd) = a[r, kd], or a[kd, r] with `transposed` (and D likewise
// from dc); FP8 operands are decoded and multiplied by their scale (0-d) or
// by the scale of their 128-row block, a_scale[kd, r/128] /
// dc_scale[n, r/128], before the product.
// Each group's A and D values are dequantized once into f32 panels
// [Kd][rows] and [N][rows] (each value as computed per term, so the sums are
// the same bits): decoding them again for every product term made the FP8
// weight gradients most of a layer's CPU reference (dsv3-1gpu's check-size
// backward: minutes for its 11 G outputs).
void emitGroupedWeightGrad(OpBuilder &b, Location loc, WeightLayout layout,
                           bool transposed, Value a, Value dc, Value sizes,
                           Value aScale, Value dcScale, Value db) {
  bool kn = layout == WeightLayout::KN;
  Value numRows64 = toI64(b, loc, dimOf(b, loc, a, transposed ? 1 : 0));
  Value numGroups = dimOf(b, loc, db, 0);
  Value dim1 = dimOf(b, loc, db, 1); // Kd (kn) or N (nk)
  Value dim2 = dimOf(b, loc, db, 2); // N (kn) or Kd (nk)
  Value depth = kn ? dim1 : dim2;    // Kd
  Value width = kn ? dim2 : dim1;    // N
  Value block = indexConst(
      b, loc, opmath::quantBlockShape(QuantRecipe::Block1x128)->cols);
  Scale sa = makeScale(b, loc, aScale);
  Scale sdc = makeScale(b, loc, dcScale);
  // Element (r, col) of an operand, dequantized when it has a scale.
  auto load = [&](OpBuilder &rb, Location rloc, Value operand, Value scale,
                  const Scale &s, Value r, Value col) -> Value {
    Value v = loadAsF32(rb, rloc, operand,
                        transposed ? ValueRange{col, r} : ValueRange{r, col});
    if (!scale)
      return v;
    Value rBlock = arith::DivUIOp::create(rb, rloc, r, block);
    return arith::MulFOp::create(rb, rloc, v,
                                 s.at(rb, rloc, ValueRange{col, rBlock}));
  };
  auto panelType =
      MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                      b.getF32Type());
  // panel[col, r - lo] = the operand's (r, col), for r in [lo, hi): visited
  // in the operand's storage order.
  auto fillPanel = [&](OpBuilder &pb, Location ploc, Value panel,
                       Value operand, Value scale, const Scale &s, Value cols,
                       Value lo, Value hi) {
    auto store = [&](OpBuilder &eb, Location eloc, Value r, Value col) {
      Value v = load(eb, eloc, operand, scale, s, r, col);
      Value t = arith::SubIOp::create(eb, eloc, r, lo);
      memref::StoreOp::create(eb, eloc, v, panel, ValueRange{col, t});
    };
    Value c0 = indexConst(pb, ploc, 0);
    if (transposed) {
      forRange(pb, ploc, c0, cols, [&](OpBuilder &cb, Location cloc, Value col) {
        forRange(cb, cloc, lo, hi, [&](OpBuilder &eb, Location eloc, Value r) {
          store(eb, eloc, r, col);
        });
      });
      return;
    }
    forRange(pb, ploc, lo, hi, [&](OpBuilder &rb, Location rloc, Value r) {
      forRange(rb, rloc, indexConst(rb, rloc, 0), cols,
               [&](OpBuilder &eb, Location eloc, Value col) {
                 store(eb, eloc, r, col);
               });
    });
  };

  forEachGroup(
      b, loc, sizes, numGroups, numRows64,
      [&](OpBuilder &gb, Location gloc, Value g, Value lo, Value hi) {
        Value rows = arith::SubIOp::create(gb, gloc, hi, lo);
        Value aPanel = memref::AllocOp::create(gb, gloc, panelType,
                                               ValueRange{depth, rows});
        Value dPanel = memref::AllocOp::create(gb, gloc, panelType,
                                               ValueRange{width, rows});
        fillPanel(gb, gloc, aPanel, a, aScale, sa, depth, lo, hi);
        fillPanel(gb, gloc, dPanel, dc, dcScale, sdc, width, lo, hi);
        forRange(
            gb, gloc, indexConst(gb, gloc, 0), dim1,
            [&](OpBuilder &ib, Location iloc, Value i) {
              forRange(
                  ib, iloc, indexConst(ib, iloc, 0), dim2,
                  [&](OpBuilder &jb, Location jloc, Value j) {
                    Value kd = kn ? i : j;
                    Value n = kn ? j : i;
                    Value acc = forReduce(
                        jb, jloc, indexConst(jb, jloc, 0), rows,
                        f32Const(jb, jloc, 0.0),
                        [&](OpBuilder &rb, Location rloc, Value t,
                            Value sum) -> Value {
                          Value av = memref::LoadOp::create(
                              rb, rloc, aPanel, ValueRange{kd, t});
                          Value dv = memref::LoadOp::create(
                              rb, rloc, dPanel, ValueRange{n, t});
                          return arith::AddFOp::create(
                              rb, rloc, sum,
                              arith::MulFOp::create(rb, rloc, av, dv));
                        });
                    storeFromF32(jb, jloc, acc, db, ValueRange{g, i, j});
                  });
            });
        memref::DeallocOp::create(gb, gloc, aPanel);
        memref::DeallocOp::create(gb, gloc, dPanel);
      });
}

} // namespace mlir::moe::loops

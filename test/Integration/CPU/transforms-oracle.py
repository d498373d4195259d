# Regenerates transforms.mlir: the expected offsets come from this small
# oracle, written from the formulas of docs/transforms.md and independent of
# the C++ evaluator. Run: python3 test/Integration/CPU/transforms-oracle.py
# Writes test/Integration/CPU/transforms.mlir. Expected values come from a
# tiny independent oracle written from docs/transforms.md's formulas.
import itertools
def fdiv(a,b): return a//b
def fmod(a,b): return a%b
cases = []
def case(name, comment, base, stages, top, lower_fn):
    cases.append((name, comment, base, stages, top, lower_fn))

# base: (ir, lengths, strides)
def packed(lens):
    st=[1]*len(lens)
    for i in range(len(lens)-2,-1,-1): st[i]=st[i+1]*lens[i+1]
    return ("layout.packed [%s] : !layout.desc<%s>"%(", ".join(map(str,lens)),"x".join(map(str,lens))), st)
def off(base_strides, coord): return sum(c*s for c,s in zip(coord,base_strides))

# each lower_fn(top) -> (base coordinate, valid)
case("pass_through","identity", packed([5]), ["#layout.pass_through<5> : [0] -> [0]"], [5], lambda u:([u[0]],True))
case("pad","u - 1, valid for 1 <= u < 4", packed([3]), ["#layout.pad<3, 1, 1> : [0] -> [0]"], [5], lambda u:([u[0]-1], 1<=u[0]<4))
case("left_pad","u - 2, valid for u >= 2", packed([3]), ["#layout.left_pad<3, 2> : [0] -> [0]"], [5], lambda u:([u[0]-2], u[0]>=2))
case("right_pad","u, valid for u < 3", packed([3]), ["#layout.right_pad<3, 2> : [0] -> [0]"], [5], lambda u:([u[0]], u[0]<3))
case("embed","12 u0 + u1", packed([15]), ["#layout.embed<[2, 3], [12, 1]> : [0] -> [0, 1]"], [2,3], lambda u:([12*u[0]+u[1]],True))
case("merge","(u div 5, u mod 5) on strides [10, 1]", ("layout.naive [4, 5] strides [10, 1] : !layout.desc<4x5>",[10,1]), ["#layout.merge<[4, 5]> : [0, 1] -> [0]"], [20], lambda u:([u[0]//5,u[0]%5],True))
case("unmerge","8 u0 + 2 u1 + u2", packed([24]), ["#layout.unmerge<[3, 4, 2]> : [0] -> [0, 1, 2]"], [3,4,2], lambda u:([8*u[0]+2*u[1]+u[2]],True))
case("replicate","the new dim is ignored", packed([3]), ["#layout.pass_through<3> : [0] -> [0], #layout.replicate<[2]> : [] -> [1]"], [3,2], lambda u:([u[0]],True))
case("freeze","dim 0 pinned to 2", packed([3,4]), ["#layout.freeze<2> : [0] -> [], #layout.pass_through<4> : [1] -> [0]"], [4], lambda u:([2,u[0]],True))
case("offset","u + 16", packed([64]), ["#layout.offset<6, 16> : [0] -> [0]"], [6], lambda u:([u[0]+16],True))
case("slice","u + 2", packed([10]), ["#layout.slice<10, 2, 7> : [0] -> [0]"], [5], lambda u:([u[0]+2],True))
case("modulo","u mod 3", packed([4]), ["#layout.modulo<3, 7> : [0] -> [0]"], [7], lambda u:([u[0]%3],True))
case("xor","(u0, u1 xor (u0 mod 4))", packed([3,4]), ["#layout.xor<[3, 4]> : [0, 1] -> [0, 1]"], [3,4], lambda u:([u[0], u[1]^(u[0]%4)],True))
case("rotate","(u0, (u1 + u0) mod 3)", packed([2,3]), ["#layout.rotate<[2, 3]> : [0, 1] -> [0, 1]"], [2,3], lambda u:([u[0], (u[1]+u[0])%3],True))
def swz(u,B,M,S):
    sh = (u>>S) if S>=0 else (u<<-S)
    return u ^ (sh & (((1<<B)-1)<<M))
case("swizzle","u xor ((u >> 3) & 0b110)", packed([64]), ["#layout.swizzle<2, 1, 3, 64> : [0] -> [0]"], [64], lambda u:([swz(u[0],2,1,3)],True))
case("swizzle_left","u xor ((u << 2) & 0b11000)", packed([32]), ["#layout.swizzle<2, 3, -2, 32> : [0] -> [0]"], [32], lambda u:([swz(u[0],2,3,-2)],True))
def sunder(u):
    a,b,s = u
    if s==0: return ([a], a<3)
    return ([b+3], b<2)
case("sunder","pieces [3, 2]: (a, b, s) -> a if s = 0 else 3 + b", packed([5]), ["#layout.sunder<[3, 2]> : [0] -> [0, 1, 2]"], [3,2,2], sunder)
# seeds
case("seed_view_2x2x3","packed [2, 6] as 2x2x3: 6 u0 + 3 u1 + u2", packed([2,6]), ["#layout.pass_through<2> : [0] -> [0], #layout.unmerge<[2, 3]> : [1] -> [1, 2]"], [2,2,3], lambda u:([u[0], 3*u[1]+u[2]],True))
case("seed_transpose","4x3 transpose of a 3x4 row-major: 4 j + i", packed([3,4]), ["#layout.pass_through<3> : [0] -> [1], #layout.pass_through<4> : [1] -> [0]"], [4,3], lambda u:([u[1],u[0]],True))
case("seed_conv_pad","H, W of 4x4 padded by 1: valid inside, offset 4 (h - 1) + (w - 1)", packed([4,4]), ["#layout.pad<4, 1, 1> : [0] -> [0], #layout.pad<4, 1, 1> : [1] -> [1]"], [6,6], lambda u:([u[0]-1,u[1]-1], 1<=u[0]<5 and 1<=u[1]<5))
case("seed_block_merge","5-D [2, 2, 2, 3, 2] merged into 3-D [2, 4, 6] as dims (0), (1, 2), (3, 4)", packed([2,2,2,3,2]), ["#layout.pass_through<2> : [0] -> [0], #layout.merge<[2, 2]> : [1, 2] -> [1], #layout.merge<[3, 2]> : [3, 4] -> [2]"], [2,4,6], lambda u:([u[0], u[1]//2, u[1]%2, u[2]//2, u[2]%2],True))
def im2col(u):
    # input 1-D W = 5 padded by 1 each side, window 3, output 5 positions;
    # im2col rows (o, k) -> input x = o + k - 1
    o,k = u
    x = o + k - 1
    return ([x], 0 <= x < 5)
case("seed_im2col","1-D conv im2col: W 5 padded by 1, window 3: (o, k) -> o + k - 1 (valid inside)", packed([5]), ["#layout.pad<5, 1, 1> : [0] -> [0]", "#layout.embed<[5, 3], [1, 1]> : [0] -> [0, 1]"], [5,3], im2col)

INTER = {"seed_im2col": [[7]]}
def desc_type(l): return "!layout.desc<%s>"%"x".join(map(str,l))
out=[]
out.append("""// RUN: layout-opt %s -layout-to-llvm \\
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \\
// RUN: | FileCheck %s

/// Executes layout.offset / layout.valid on the CPU for one descriptor per
/// transform kind and for the seeds' examples, over every top coordinate in
/// row-major order. Each line is the offsets, with -1 where the coordinate
/// is invalid. The expected values are worked out from the formulas in
/// docs/transforms.md (written next to each case), not by the evaluator.
""")
mains=[]
for (name, comment, base, stages, top, fn) in cases:
    bir, bstrides = base
    blens = [int(x) for x in bir.split("<")[1].split(">")[0].split("x")]
    n=1
    for t in top: n*=t
    exp=[]
    for coord in itertools.product(*[range(t) for t in top]):
        bc, valid = fn(list(coord))
        exp.append(off(bstrides, bc) if valid else -1)
    out.append("/// %s"%comment)
    out.append("// CHECK: %s: ( %s ){{$}}"%(name, ", ".join(map(str,exp))))
    out.append("func.func @%s() {"%name)
    out.append("  %%d0 = %s"%bir)
    cur = blens
    for i,st in enumerate(stages):
        # compute upper lengths: for the last stage it's top; intermediate given by hand below
        nxt = top if i==len(stages)-1 else INTER[name][i]
        out.append("  %%d%d = layout.transform %%d%d [%s] : %s -> %s"%(i+1,i,st,desc_type(cur),desc_type(nxt)))
        cur = nxt
    d="%%d%d"%len(stages)
    out.append("""  %%c0 = arith.constant 0 : index
  %%c1 = arith.constant 1 : index
  %%n = arith.constant %d : index
  %%minus1 = arith.constant -1 : i64
  %%buf = memref.alloca() : memref<%dxi64>
  scf.for %%f = %%c0 to %%n step %%c1 {"""%(n,n))
    if len(top)==1:
        idx="%f"
    else:
        out.append("    %%i:%d = affine.delinearize_index %%f into (%s) : %s"%(len(top),", ".join(map(str,top)),", ".join(["index"]*len(top))))
        idx=", ".join("%%i#%d"%k for k in range(len(top)))
    out.append("""    %%o = layout.offset %s[%s] : %s
    %%v = layout.valid %s[%s] : %s
    %%o64 = arith.index_cast %%o : index to i64
    %%r = arith.select %%v, %%o64, %%minus1 : i64
    memref.store %%r, %%buf[%%f] : memref<%dxi64>
  }
  %%vec = vector.load %%buf[%%c0] : memref<%dxi64>, vector<%dxi64>
  vector.print str "%s: "
  vector.print %%vec : vector<%dxi64>
  return
}
"""%(d,idx,desc_type(top),d,idx,desc_type(top),n,n,n,name,n))
    mains.append("  call @%s() : () -> ()"%name)
out.append("func.func @main() {\n%s\n  return\n}"%"\n".join(mains))
open(__import__("os").path.join(__import__("os").path.dirname(__file__),"transforms.mlir"),"w").write("\n".join(out)+"\n")

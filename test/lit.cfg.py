# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MOE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.moe_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%moe_src_root", config.moe_src_root))
config.substitutions.append(("%moe_obj_root", config.moe_obj_root))

llvm_config.use_default_substitutions()
# moe-runner caches compiled .mlir files; keep that inside the build tree.
config.environment["MOE_CACHE_DIR"] = os.path.join(config.moe_obj_root,
                                                   "test", "moe-cache")
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.moe_tools_dir, config.llvm_tools_dir]
tools = ["moe-opt", "moe-compile", "moe-runner", "moe-capi-test"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
# test/plugin: upstream's mlir-opt (the installed one, not a project tool)
# loads %moe_plugin, the plugin build of the moe dialect and passes
# (lib/Plugins, built into the build's lib/).
llvm_config.add_tool_substitutions(["mlir-opt", "llvm-nm", "llvm-readelf"],
                                   [config.llvm_tools_dir])
config.substitutions.append(
    ("%moe_plugin", os.path.join(config.moe_obj_root, "lib", "MoePlugin.so")))

# Feature ptxas: a CUDA toolkit with ptxas and libdevice, what
# gpu-module-to-binary (moe-lower-to-gpu) and moe-compile --target=sm_* need
# to make cubins; no GPU is needed. Looked for in $CUDA_HOME, $CUDA_ROOT,
# then /usr/local/cuda; %cuda_path is the toolkit root found. Without one,
# the tests that REQUIRE it are UNSUPPORTED and lit says why.
def _find_cuda_toolkit():
    tried = []
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_ROOT"),
                 "/usr/local/cuda"):
        if not root or root in [r for r, _ in tried]:
            continue
        missing = [os.path.join(root, *rel) for rel in
                   (("bin", "ptxas"), ("nvvm", "libdevice", "libdevice.10.bc"))
                   if not os.path.exists(os.path.join(root, *rel))]
        if not missing:
            return root, None
        tried.append((root, missing))
    return None, "; ".join("%s (no %s)" % (r, ", ".join(m)) for r, m in tried)


_cuda_root, _cuda_missing = _find_cuda_toolkit()
if _cuda_root is not None:
    config.available_features.add("ptxas")
    config.substitutions.append(("%cuda_path", _cuda_root))
else:
    lit_config.note("GPU compilation tests (REQUIRES: ptxas: "
                    "Conversion/gpu/lower-to-gpu.mlir, tools/moe-compile-gpu.test) "
                    "UNSUPPORTED: no CUDA toolkit with ptxas and libdevice found "
                    "in " + _cuda_missing)

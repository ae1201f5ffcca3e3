# add_moe_library(name ...): an MLIR library that is installed into the
# MoeDialectTargets export set (CIRCT's pattern), so embedders can link
# MoeDialect::<name> after find_package(MoeDialect).
function(add_moe_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  install(TARGETS ${name} EXPORT MoeDialectTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# add_moe_library(name ...): an MLIR library that is installed into the
# MoeDialectTargets export set (CIRCT's pattern), so embedders can link
# MoeDialect::<name> after find_package(MoeDialect) and get its headers.
function(add_moe_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  target_include_directories(${name} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${name} EXPORT MoeDialectTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

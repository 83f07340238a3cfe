# DTraceSDKPlugin.cmake: dtrace_sdk_add_plugin(), shared by the installed SDK
# package and dtrace's own tree (where DTraceSDK::sdk is an alias of the
# in-tree headers), so an example builds the same way in both.
#
#   dtrace_sdk_add_plugin(<target> [NO_INSTALL] [DESTINATION <dir>] <source>...)
#
# Builds <target>.so as a MODULE (no "lib" prefix: dtrace loads it by path or
# finds it in a plugin directory), with hidden visibility so that only the
# DTRACE_PLUGIN_EXPORT entry point is exported, and installs it into
# DESTINATION, by default ${DTraceSDK_PLUGIN_DIR} (the plugin directory of the
# dtrace the SDK came with). Point DESTINATION elsewhere and add that
# directory to DTRACE_PLUGIN_PATH when you cannot write there.
function(dtrace_sdk_add_plugin target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_INSTALL" "DESTINATION" "")
  add_library(${target} MODULE ${arg_UNPARSED_ARGUMENTS})
  target_link_libraries(${target} PRIVATE DTraceSDK::sdk)
  set_target_properties(${target} PROPERTIES PREFIX ""
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden)
  if(NOT arg_NO_INSTALL)
    if(NOT arg_DESTINATION)
      set(arg_DESTINATION ${DTraceSDK_PLUGIN_DIR})
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION ${arg_DESTINATION})
  endif()
endfunction()

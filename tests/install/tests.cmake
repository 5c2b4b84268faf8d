# SPDX-License-Identifier: GPL-3.0-or-later
# The installed programs: cmake --install into <build>/install-test, then run from / (test_install.sh).
if(TARGET specdec-lab)
  add_test(NAME test_install
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_install.sh ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_install PROPERTIES TIMEOUT 300 LABELS "cli;gui")
endif()

# The desktop entry and the AppStream metainfo pass their validators (when installed: desktop-file-utils,
# appstream).
find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
find_program(APPSTREAMCLI appstreamcli)
if(DESKTOP_FILE_VALIDATE)
  add_test(NAME test_desktop_entry
           COMMAND ${DESKTOP_FILE_VALIDATE} ${PROJECT_SOURCE_DIR}/packaging/${SPECDEC_APP_ID}.desktop)
  set_tests_properties(test_desktop_entry PROPERTIES LABELS gui)
endif()
if(APPSTREAMCLI)
  add_test(NAME test_metainfo
           COMMAND ${APPSTREAMCLI} validate --no-net --pedantic
                   ${PROJECT_SOURCE_DIR}/packaging/${SPECDEC_APP_ID}.metainfo.xml)
  set_tests_properties(test_metainfo PROPERTIES LABELS gui)
endif()

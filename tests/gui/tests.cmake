# SPDX-License-Identifier: GPL-3.0-or-later
# Widget and window suites of the GUI (run offscreen). They link specdec_widgets / specdec_lab; they never
# recompile application sources.
# The window suites' shared helpers (GuiTestSupport.h), compiled once.
add_library(specdec_gui_test_support STATIC gui/GuiTestSupport.h gui/GuiTestSupport.cpp)
target_link_libraries(specdec_gui_test_support PUBLIC specdec_test_support specdec_lab)
target_compile_options(specdec_gui_test_support PRIVATE -UQT_NO_FOREACH)
foreach(_suite test_gui_round_view test_gui_distribution_view test_gui_plots test_gui_timeline test_gui_session
    test_gui_lossless_lab test_gui_arena test_gui_classroom test_gui_frames test_gui_history test_gui_quiz
    test_gui_engine test_gui_predict test_gui_presenter test_gui_no_spoilers test_gui_actions test_gui_layout
    test_gui_tree_view test_gui_handout test_gui_presenter_fit test_gui_guard test_gui_command_line
    test_gui_race test_gui_run_report test_gui_tokens test_gui_hf_folders)
  specdec_add_test(${_suite} gui/${_suite}.cpp)
  target_link_libraries(${_suite} PRIVATE specdec_gui_test_support)
  target_compile_definitions(${_suite} PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  # qcustomplot.h uses Q_FOREACH itself.
  target_compile_options(${_suite} PRIVATE -UQT_NO_FOREACH)
endforeach()

# The model-folder suite compares the window's greedy text with the command line's.
add_dependencies(test_gui_hf_folders specdec)

# The subword suite reads the tokenizer.json files the fixture lays out (tests/tokenizer/fetch-tokenizers.sh).
set_tests_properties(test_gui_tokens PROPERTIES FIXTURES_REQUIRED tokenizer_files)

# The layout suite loads the Chinese translation the build compiles for specdec-lab.
target_compile_definitions(test_gui_layout PRIVATE SPECDEC_QM_DIR="${CMAKE_BINARY_DIR}/app/gui")
add_dependencies(test_gui_layout specdec-lab)
target_compile_definitions(test_gui_handout PRIVATE SPECDEC_QM_DIR="${CMAKE_BINARY_DIR}/app/gui")
add_dependencies(test_gui_handout specdec-lab)
target_compile_definitions(test_gui_presenter_fit PRIVATE SPECDEC_QM_DIR="${CMAKE_BINARY_DIR}/app/gui")
add_dependencies(test_gui_presenter_fit specdec-lab)
target_compile_definitions(test_gui_session PRIVATE SPECDEC_QM_DIR="${CMAKE_BINARY_DIR}/app/gui")
add_dependencies(test_gui_session specdec-lab)

# The frame alone: a plain unit test of what each phase reveals (no widget is created); it links the
# presentation model (session/, Qt Core) only, no widget and no QCustomPlot.
specdec_add_test(test_frame gui/test_frame.cpp)
target_link_libraries(test_frame PRIVATE specdec_session)

# The tool windows as they open (arena, lab, theory explorer; for the user guide: scripts/docs-screenshots.sh),
# not a test: classroom_screenshots OUTPUT_DIR. docs/classroom.md's presenter-mode screenshots come from
# specdec-lab's own flags: scripts/classroom-screenshots.sh.
add_executable(classroom_screenshots gui/classroom_screenshots.cpp)
target_link_libraries(classroom_screenshots PRIVATE specdec_lab)
# The app's translations are embedded in specdec-lab only: the tool loads the .qm the build compiles.
target_compile_definitions(classroom_screenshots PRIVATE SPECDEC_QM_DIR="${CMAKE_BINARY_DIR}/app/gui")
add_dependencies(classroom_screenshots specdec-lab)
target_compile_options(classroom_screenshots PRIVATE -UQT_NO_FOREACH)

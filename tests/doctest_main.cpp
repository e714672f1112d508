// The main of every doctest executable. ctest runs one test case per process, chosen with
// --test-case=NAME (doctest_discover_tests). A filter that selects no test case would run
// nothing and pass -- as it did for names with a ';', which the discovery splits into two
// names that match nothing -- so a filtered run that selects no test case fails here.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>

namespace {

bool g_ran = false;         // a test run ended (not a --list-* query)
unsigned g_selected = 0;    // the test cases that passed the filters in it

struct SelectionCount : doctest::IReporter {
  explicit SelectionCount(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    g_ran = true;
    g_selected = stats.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("selection_count", 1, SelectionCount);

bool filters_test_cases(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    for (const char* opt : {"--test-case=", "-tc=", "--dt-test-case=", "--dt-tc="})
      if (std::strncmp(argv[i], opt, std::strlen(opt)) == 0) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit() || result != 0) return result;
  if (g_ran && g_selected == 0 && filters_test_cases(argc, argv)) {
    std::fprintf(stderr, "doctest_main: the test-case filter selects no test case (a name ctest cannot pass, "
                         "such as one with ';'?)\n");
    return 1;
  }
  return result;
}

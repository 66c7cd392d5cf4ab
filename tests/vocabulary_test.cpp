// One source for the config vocabulary: the decoder, the did-you-mean suggestions and the
// guide's field table (docs/guide/config.md) all come from tilefit/io/vocabulary.hpp.
#include <gtest/gtest.h>

#include <set>

#include "io/config_decoder.hpp"
#include "test_support.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/io/vocabulary.hpp"

namespace tilefit::io {
namespace {

TEST(Vocabulary, GuideFieldTableIsGeneratedFromIt) {
  const std::string guide = test::read_file(test::source_path("docs/guide/config.md"));
  EXPECT_NE(guide.find(config_table_markdown()), std::string::npos)
      << "docs/guide/config.md's field table differs from tilefit/io/vocabulary.cpp; it should "
         "read:\n"
      << config_table_markdown();
}

TEST(Vocabulary, DecoderKnowsExactlyTheseFields) {
  EXPECT_EQ(detail::config_field_names(), field_names(config_fields()));
  std::set<std::string> seen;
  for (const FieldSpec& f : config_fields()) {
    EXPECT_TRUE(seen.insert(std::string(f.name)).second) << f.name;
    EXPECT_FALSE(f.type.empty()) << f.name;
    EXPECT_FALSE(f.meaning.empty()) << f.name;
  }
}

TEST(Vocabulary, DidYouMeanComesFromTheSameNames) {
  const LoadResult r = load<LoadResult>(Source::text(R"([{"tile": [128,128,128], "shedule": "auto",
      "epilogue": {"varient": "tma"}}])",
                                                     "v.json"));
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(format_error(r.errors[0]),
            "v.json: config #0: field \"shedule\": unknown field; did you mean \"schedule\"?");
  EXPECT_EQ(
      format_error(r.errors[1]),
      "v.json: config #0: field \"epilogue.varient\": unknown field; did you mean \"variant\"?");
}

TEST(Vocabulary, AllowedNamesComeFromTheModel) {
  const auto schedules = allowed_names(FieldKind::schedule);
  EXPECT_EQ(schedules, (std::vector<std::string>{"auto", "cooperative", "pingpong", "1sm", "2sm",
                                                 "multistage", "ws"}));
  const auto elements = allowed_names(FieldKind::element);
  EXPECT_NE(std::find(elements.begin(), elements.end(), "fp8"), elements.end());  // an alias
}

}  // namespace
}  // namespace tilefit::io

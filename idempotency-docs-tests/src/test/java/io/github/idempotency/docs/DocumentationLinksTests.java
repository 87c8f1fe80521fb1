package io.github.idempotency.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import io.github.idempotency.docs.Documentation.Link;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and the guide hold together: every relative link leads to a file, and to a heading of
 * it; the request's path lists files that exist, at most 25; the README stays the front door.
 */
class DocumentationLinksTests {

	private static final Path FLOW = Documentation.root().resolve("docs/how-a-request-flows.md");

	@TestFactory
	Stream<DynamicTest> everyRelativeLinkLeadsToAFileAndHeading() {
		return Documentation.pages()
			.stream()
			.flatMap((page) -> Documentation.links(page).stream())
			.map((link) -> DynamicTest.dynamicTest(link.toString(), () -> assertLeadsSomewhere(link)));
	}

	@Test
	void theRequestsPathListsAtMost25FilesThatExist() {
		List<Link> files = Documentation.links(FLOW)
			.stream()
			.filter((link) -> link.target().endsWith(".java"))
			.toList();
		assertThat(files).as("files of the request's path in %s", FLOW).isNotEmpty().hasSizeLessThanOrEqualTo(25);
		assertThat(files).extracting(Link::target).doesNotHaveDuplicates();
		// Each row of the table is numbered in order, so that the list reads as the path.
		List<String> rows = Documentation.lines(FLOW).stream().filter((line) -> line.matches("^\\| *\\d+ *\\|.*")).toList();
		assertThat(rows).hasSameSizeAs(files);
		for (int i = 0; i < rows.size(); i++) {
			assertThat(rows.get(i)).startsWith("| " + (i + 1) + " |");
		}
	}

	@Test
	void theReadmeIsUnder400Lines() {
		assertThat(Documentation.lines(Documentation.root().resolve("README.md"))).hasSizeLessThan(400);
	}

	@Test
	void theReadmeGivesTheTestCommandCiRuns() {
		List<String> readme = Documentation.lines(Documentation.root().resolve("README.md"));
		assertThat(readme).contains("./mvnw verify");
		assertThat(Documentation.lines(Documentation.root().resolve(".ci/run")))
			.anySatisfy((line) -> assertThat(line).matches("\\./mvnw( -B)? verify"));
	}

	private static void assertLeadsSomewhere(Link link) {
		String target = link.target();
		int hash = target.indexOf('#');
		String path = (hash >= 0) ? target.substring(0, hash) : target;
		String anchor = (hash >= 0) ? target.substring(hash + 1) : null;
		Path file = path.isEmpty() ? link.page() : link.page().getParent().resolve(path).normalize();
		assertThat(file).as("%s: the file it leads to", link).exists();
		assertThat(file.startsWith(Documentation.root())).as("%s stays in the repository", link).isTrue();
		if (anchor != null) {
			assertThat(file.toString()).as("%s: an anchor in a Markdown file", link).endsWith(".md");
			assertThat(Documentation.anchors(file)).as("%s: the headings of %s", link, file.getFileName())
				.contains(anchor);
		}
		if (Files.isDirectory(file)) {
			assertThat(file).as("%s: a folder", link).isNotEmptyDirectory();
		}
	}

}

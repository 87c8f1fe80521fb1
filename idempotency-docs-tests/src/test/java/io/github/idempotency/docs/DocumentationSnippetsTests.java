package io.github.idempotency.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import io.github.idempotency.docs.Documentation.Block;
import io.github.idempotency.docs.TaggedRegions.Region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every Java, YAML and properties block of the README and the guide quotes a marked region of this
 * module's compiling code or checked configuration (see {@code docs/README.md}, "How the snippets
 * are checked"); every Maven block names artifacts that exist.
 */
class DocumentationSnippetsTests {

	private static final Map<String, Set<String>> EXTENSIONS = Map.of("java", Set.of("java"), "yaml",
			Set.of("yml", "yaml"), "yml", Set.of("yml", "yaml"), "properties", Set.of("properties"));

	private static final List<Region> regions = TaggedRegions.in(Documentation.module().resolve("src/test/java"),
			Documentation.module().resolve("src/test/resources/snippets"));

	@TestFactory
	Stream<DynamicTest> everyCodeBlockQuotesCompilingCode() {
		return checkedBlocks().map((block) -> DynamicTest.dynamicTest(block.toString(), () -> assertQuoted(block)));
	}

	@TestFactory
	Stream<DynamicTest> everyMavenBlockNamesArtifactsThatExist() {
		return Documentation.pages()
			.stream()
			.flatMap((page) -> Documentation.blocks(page).stream())
			.filter((block) -> block.language().equals("xml"))
			.map((block) -> DynamicTest.dynamicTest(block.toString(), () -> assertDependencies(block)));
	}

	@Test
	void theReadmesBlocksAreFound() {
		List<Block> readme = Documentation.blocks(Documentation.root().resolve("README.md"));
		assertThat(readme).extracting(Block::language).contains("java", "yaml", "xml", "shell");
	}

	@Test
	void everyRegionIsQuotedByABlock() {
		Set<Region> quoted = new HashSet<>();
		checkedBlocks().forEach((block) -> {
			SnippetMatch match = new SnippetMatch(block.text());
			regionsFor(block).filter((region) -> match.matches(region.text())).forEach(quoted::add);
		});
		assertThat(regions).as("regions no block of the documentation quotes any more").isNotEmpty()
			.allSatisfy((region) -> assertThat(quoted).as(region.toString()).contains(region));
	}

	private static Stream<Block> checkedBlocks() {
		return Documentation.pages()
			.stream()
			.flatMap((page) -> Documentation.blocks(page).stream())
			.filter((block) -> EXTENSIONS.containsKey(block.language()));
	}

	private static Stream<Region> regionsFor(Block block) {
		Set<String> extensions = EXTENSIONS.get(block.language());
		return regions.stream().filter((region) -> extensions.contains(region.extension()));
	}

	private static void assertQuoted(Block block) {
		SnippetMatch match = new SnippetMatch(block.text());
		assertThat(match.isEmpty()).as("%s is empty", block).isFalse();
		if (regionsFor(block).anyMatch((region) -> match.matches(region.text()))) {
			return;
		}
		List<Region> candidates = new ArrayList<>(regionsFor(block).toList());
		candidates.sort(Comparator.comparingInt((Region region) -> match.progress(region.text()).agreed()).reversed());
		if (candidates.isEmpty()) {
			fail(block + " quotes no marked region: there is no region for its language. Put the code in a "
					+ "file of idempotency-docs-tests between tag::name[] and end::name[] comments.");
		}
		Region closest = candidates.get(0);
		fail(block + " quotes no marked region of compiling code. Closest is " + closest + ", where "
				+ match.progress(closest.text()).describe() + ". Change the code in the region first (it must "
				+ "compile or bind), then the block; see docs/README.md, \"How the snippets are checked\".");
	}

	private static void assertDependencies(Block block) throws Exception {
		Element root = DocumentBuilderFactory.newInstance()
			.newDocumentBuilder()
			.parse(new InputSource(new java.io.StringReader("<snippet>" + block.text() + "</snippet>")))
			.getDocumentElement();
		NodeList dependencies = root.getElementsByTagName("dependency");
		assertThat(dependencies.getLength()).as("dependencies in %s", block).isPositive();
		Map<String, Boolean> modules = publishedModules();
		for (int i = 0; i < dependencies.getLength(); i++) {
			Element dependency = (Element) dependencies.item(i);
			String groupId = text(dependency, "groupId");
			String artifactId = text(dependency, "artifactId");
			String version = text(dependency, "version");
			if ("io.github.idempotency".equals(groupId)) {
				assertThat(modules).as("%s: %s is a module of this build", block, artifactId).containsKey(artifactId);
				assertThat(modules.get(artifactId)).as("%s: %s is published", block, artifactId).isTrue();
				assertThat(version).as("%s: the version of %s", block, artifactId)
					.isEqualTo(System.getProperty("idempotency.version"));
			}
			else {
				assertThat(groupId).as("%s: a dependency outside this build", block)
					.isEqualTo("org.springframework.boot");
				assertThat(artifactId).as("%s: a Spring Boot starter", block).startsWith("spring-boot-starter");
				assertThat(version).as("%s: Spring Boot manages the version of %s", block, artifactId).isNull();
			}
		}
	}

	/**
	 * The modules of the build by artifact id, each with whether it is published.
	 */
	private static Map<String, Boolean> publishedModules() throws Exception {
		Map<String, Boolean> modules = new java.util.HashMap<>();
		try (Stream<Path> folders = Files.list(Documentation.root())) {
			for (Path pom : folders.map((folder) -> folder.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
				Element project = DocumentBuilderFactory.newInstance()
					.newDocumentBuilder()
					.parse(pom.toFile())
					.getDocumentElement();
				NodeList skip = project.getElementsByTagName("maven.deploy.skip");
				boolean published = skip.getLength() == 0 || !"true".equals(skip.item(0).getTextContent().strip());
				modules.put(text(project, "artifactId"), published);
			}
		}
		return modules;
	}

	private static String text(Element element, String child) {
		NodeList children = element.getChildNodes();
		for (int i = 0; i < children.getLength(); i++) {
			if (children.item(i) instanceof Element candidate && candidate.getTagName().equals(child)) {
				return candidate.getTextContent().strip();
			}
		}
		return null;
	}

}

package io.github.idempotency.sample;

import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The published jars, as this application gets them: each names its automatic module in its
 * manifest, so that a modular application can require it by a stable name, and the BOM manages
 * each at the project's version. Run after package, so that Maven resolves the reactor's modules
 * to their jars rather than their class folders.
 */
class PublishedJarsIT {

	private static final Map<String, String> MODULE_NAMES = Map.ofEntries(
			Map.entry("idempotency-core", "io.github.idempotency.core"),
			Map.entry("idempotency-engine", "io.github.idempotency.engine"),
			Map.entry("idempotency-webmvc", "io.github.idempotency.webmvc"),
			Map.entry("idempotency-webflux", "io.github.idempotency.webflux"),
			Map.entry("idempotency-jdbc", "io.github.idempotency.jdbc"),
			Map.entry("idempotency-redis", "io.github.idempotency.redis"),
			Map.entry("idempotency-kafka", "io.github.idempotency.kafka"),
			Map.entry("idempotency-actuator", "io.github.idempotency.actuator"),
			Map.entry("idempotency-spring-boot-starter", "io.github.idempotency.starter"),
			Map.entry("idempotency-test-support", "io.github.idempotency.testsupport"),
			Map.entry("idempotency-client", "io.github.idempotency.client"));

	private static final Pattern ARTIFACT = Pattern.compile("(idempotency-[a-z-]+?)-[0-9].*\\.jar");

	@Test
	void everyPublishedJarNamesItsAutomaticModule() throws IOException, URISyntaxException {
		Map<String, String> moduleNames = new TreeMap<>();
		for (URL manifest : Collections.list(getClass().getClassLoader().getResources("META-INF/MANIFEST.MF"))) {
			if (!"jar".equals(manifest.getProtocol())) {
				continue;
			}
			URL jarUrl = ((JarURLConnection) manifest.openConnection()).getJarFileURL();
			Path jar = Path.of(jarUrl.toURI());
			Matcher artifact = ARTIFACT.matcher(jar.getFileName().toString());
			if (artifact.matches() && MODULE_NAMES.containsKey(artifact.group(1))) {
				moduleNames.put(artifact.group(1), moduleName(jar));
			}
		}
		assertThat(moduleNames).containsExactlyInAnyOrderEntriesOf(MODULE_NAMES);
	}

	@Test
	void theBomManagesEveryPublishedJarAtTheProjectVersion() throws Exception {
		Element bom = DocumentBuilderFactory.newInstance()
			.newDocumentBuilder()
			.parse(Path.of(System.getProperty("idempotency.bom")).toFile())
			.getDocumentElement();
		String version = System.getProperty("idempotency.version");
		assertThat(bom.getElementsByTagName("parent").getLength()).as("parents of the BOM").isZero();
		assertThat(childText(bom, "version")).isEqualTo(version);
		Map<String, String> managed = new HashMap<>();
		NodeList dependencies = bom.getElementsByTagName("dependency");
		for (int i = 0; i < dependencies.getLength(); i++) {
			Element dependency = (Element) dependencies.item(i);
			assertThat(childText(dependency, "groupId")).isEqualTo("io.github.idempotency");
			managed.put(childText(dependency, "artifactId"),
					childText(dependency, "version").replace("${project.version}", version));
		}
		assertThat(managed).containsOnlyKeys(MODULE_NAMES.keySet()).allSatisfy((artifact, managedVersion) ->
				assertThat(managedVersion).as(artifact).isEqualTo(version));
	}

	private static String childText(Element element, String name) {
		NodeList children = element.getChildNodes();
		for (int i = 0; i < children.getLength(); i++) {
			if (children.item(i) instanceof Element child && child.getTagName().equals(name)) {
				return child.getTextContent().trim();
			}
		}
		throw new IllegalStateException("No <" + name + "> in <" + element.getTagName() + ">");
	}

	/**
	 * Return the name the module system gives a jar on the module path: its manifest's
	 * {@code Automatic-Module-Name}, or else a name derived from the file name.
	 */
	private static String moduleName(Path jar) {
		ModuleReference module = ModuleFinder.of(jar).findAll().iterator().next();
		return module.descriptor().name();
	}

}

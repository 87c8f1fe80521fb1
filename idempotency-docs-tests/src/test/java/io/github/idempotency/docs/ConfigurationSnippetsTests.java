package io.github.idempotency.docs;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

import io.github.idempotency.docs.ConfigurationMetadata.Group;
import io.github.idempotency.docs.ConfigurationMetadata.Property;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration the documentation shows is configuration the application accepts: every key of
 * a configuration snippet is a declared property, every {@code idempotency.*} setting binds, and
 * every property of the starter is in the guide's property table.
 */
class ConfigurationSnippetsTests {

	private static final Path SNIPPETS = Documentation.module().resolve("src/test/resources/snippets/config");

	private static final ConfigurationMetadata metadata = ConfigurationMetadata.load();

	@TestFactory
	Stream<DynamicTest> everyKeyOfAConfigurationSnippetIsADeclaredProperty() {
		return files().map((file) -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
			List<String> keys = keys(load(file));
			assertThat(keys).as("keys of %s", file).isNotEmpty();
			assertThat(keys).as("keys of %s that no configuration metadata declares", file)
				.allSatisfy((key) -> assertThat(metadata.declares(key)).as(key).isTrue());
		}));
	}

	@TestFactory
	Stream<DynamicTest> everyIdempotencySettingOfASnippetBinds() {
		return files().map((file) -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
			List<PropertySource<?>> sources = load(file);
			for (Group group : starterRootGroups()) {
				bind(sources, group);
			}
		}));
	}

	@Test
	void everyPropertyOfTheStarterIsInTheConfigurationPage() throws Exception {
		String page = Files.readString(Documentation.root().resolve("docs/configuration.md"));
		List<String> names = new ArrayList<>();
		for (Property property : metadata.properties()) {
			if (property.sourceType() == null || !property.sourceType().startsWith("io.github.idempotency.")
					|| property.name().endsWith(".cache.time-to-live")) {
				continue;
			}
			if (!property.isMap()) {
				names.add(property.name());
				continue;
			}
			Class<?> values = Class.forName(property.mapValueType());
			for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(values)) {
				if (descriptor.getWriteMethod() != null) {
					names.add(property.name() + ".<name>." + kebab(descriptor.getName()));
				}
			}
		}
		assertThat(names).as("properties of the starter").isNotEmpty()
			.allSatisfy((name) -> assertThat(page).as("docs/configuration.md lists %s", name)
				.contains("| `" + name + "` |"));
	}

	/**
	 * Bind a snippet's settings under a group of the starter to the group's class, failing on a
	 * value that does not convert and on a key the class does not have; keys of a longer group of
	 * its own, and keys of another class bound at the same prefix (the web properties share the
	 * root with the core ones), are left to that group.
	 */
	private static void bind(List<PropertySource<?>> sources, Group group) throws ClassNotFoundException {
		ConfigurationPropertyName root = ConfigurationPropertyName.of(group.name());
		List<ConfigurationPropertyName> others = starterRootGroups().stream()
			.filter((other) -> other.name().length() > group.name().length())
			.map((other) -> ConfigurationPropertyName.of(other.name()))
			.filter(root::isAncestorOf)
			.toList();
		List<ConfigurationPropertyName> siblings = metadata.properties()
			.stream()
			.filter((property) -> property.sourceType() != null && !declaredBy(property, group.type())
					&& starterRootGroups().stream()
						.anyMatch((other) -> other.name().equals(group.name()) && declaredBy(property, other.type())))
			.map((property) -> ConfigurationPropertyName.of(property.name()))
			.toList();
		List<ConfigurationPropertySource> own = new ArrayList<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.from(sources)) {
			own.add(source.filter((name) -> others.stream().noneMatch((other) -> other.isAncestorOf(name))
					&& siblings.stream().noneMatch((sibling) -> sibling.equals(name) || sibling.isAncestorOf(name))));
		}
		new Binder(own).bind(root, Bindable.of(Class.forName(group.type())),
				new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
	}

	private static boolean declaredBy(Property property, String type) {
		return property.sourceType().equals(type) || property.sourceType().startsWith(type + "$");
	}

	private static List<Group> starterRootGroups() {
		return metadata.rootGroups().stream().filter((group) -> group.type().startsWith("io.github.idempotency.")
				&& group.name().startsWith("idempotency")).toList();
	}

	private static Stream<Path> files() {
		try {
			return Files.list(SNIPPETS).sorted().toList().stream();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<PropertySource<?>> load(Path file) throws IOException {
		FileSystemResource resource = new FileSystemResource(file);
		String name = file.getFileName().toString();
		return name.endsWith(".properties") ? new PropertiesPropertySourceLoader().load(name, resource)
				: new YamlPropertySourceLoader().load(name, resource);
	}

	private static List<String> keys(List<PropertySource<?>> sources) {
		return sources.stream()
			.flatMap((source) -> Arrays.stream(((EnumerablePropertySource<?>) source).getPropertyNames()))
			.toList();
	}

	private static String kebab(String name) {
		return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
	}

}

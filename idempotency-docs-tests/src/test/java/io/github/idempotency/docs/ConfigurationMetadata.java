package io.github.idempotency.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every property and group the configuration metadata on the class path declares: Spring Boot's,
 * the starter's, and those of the libraries the snippets use.
 */
final class ConfigurationMetadata {

	private static final String[] LOCATIONS = { "META-INF/spring-configuration-metadata.json",
			"META-INF/additional-spring-configuration-metadata.json" };

	private final List<Property> properties = new ArrayList<>();

	private final List<Group> groups = new ArrayList<>();

	private ConfigurationMetadata() {
	}

	static ConfigurationMetadata load() {
		ConfigurationMetadata metadata = new ConfigurationMetadata();
		JsonMapper json = JsonMapper.builder().build();
		ClassLoader classLoader = ConfigurationMetadata.class.getClassLoader();
		try {
			for (String location : LOCATIONS) {
				for (URL url : Collections.list(classLoader.getResources(location))) {
					try (InputStream in = url.openStream()) {
						JsonNode root = json.readTree(in);
						for (JsonNode property : root.path("properties")) {
							metadata.properties.add(new Property(property.path("name").asString(),
									property.path("type").asString(null), property.path("sourceType").asString(null)));
						}
						for (JsonNode group : root.path("groups")) {
							metadata.groups.add(new Group(group.path("name").asString(), group.path("type").asString(null),
									group.has("sourceMethod")));
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return metadata;
	}

	List<Property> properties() {
		return this.properties;
	}

	/**
	 * Return the groups bound to a class of their own, not reached through another group's getter.
	 * @return the root groups
	 */
	List<Group> rootGroups() {
		return this.groups.stream().filter((group) -> !group.nested() && group.type() != null).toList();
	}

	/**
	 * Return whether a key (list indexes removed) is a declared property, or an entry of a declared
	 * map property.
	 * @param key the key
	 * @return whether some metadata declares it
	 */
	boolean declares(String key) {
		String name = key.replaceAll("\\[\\d+\\]", "");
		return this.properties.stream()
			.anyMatch((property) -> property.name().equals(name)
					|| (property.isMap() && name.startsWith(property.name() + ".")));
	}

	/**
	 * A declared property.
	 *
	 * @param name its name
	 * @param type its type, as the metadata writes it
	 * @param sourceType the class that declares it
	 */
	record Property(String name, String type, String sourceType) {

		boolean isMap() {
			return this.type != null && this.type.startsWith("java.util.Map<");
		}

		/**
		 * Return the type of a map property's values.
		 * @return the class name of the values
		 */
		String mapValueType() {
			return this.type.substring(this.type.indexOf(',') + 1, this.type.length() - 1).strip();
		}

	}

	/**
	 * A declared group.
	 *
	 * @param name its prefix
	 * @param type its class
	 * @param nested whether it is reached through a getter of another group
	 */
	record Group(String name, String type, boolean nested) {

	}

}

package io.github.idempotency.engine;

import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.Disposition;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.web.IdempotencyWebProperties;
import io.github.idempotency.redis.IdempotencyRedisProperties;
import io.github.idempotency.jdbc.IdempotencyPurgeProperties;
import io.github.idempotency.jdbc.IdempotencyJdbcProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Binding of the properties of each technology from application properties, its defaults and its
 * configuration metadata.
 */
class IdempotencyPropertiesTests {

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	/**
	 * Each technology's properties, with the prefix they bind at.
	 */
	private static final Map<Class<?>, String> PROPERTIES = Map.of(IdempotencyProperties.class, "idempotency",
			IdempotencyWebProperties.class, "idempotency", IdempotencyJdbcProperties.class, "idempotency.jdbc",
			IdempotencyPurgeProperties.class, "idempotency.purge", IdempotencyRedisProperties.class,
			"idempotency.redis");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withUserConfiguration(PropertiesConfiguration.class);

	@Test
	void bindsEveryPropertyFromApplicationProperties() {
		this.runner.withInitializer(IdempotencyPropertiesTests::loadEveryProperty).run((context) -> {
			IdempotencyProperties properties = context.getBean(IdempotencyProperties.class);
			IdempotencyWebProperties web = context.getBean(IdempotencyWebProperties.class);
			IdempotencyJdbcProperties jdbc = context.getBean(IdempotencyJdbcProperties.class);
			IdempotencyPurgeProperties purge = context.getBean(IdempotencyPurgeProperties.class);
			IdempotencyRedisProperties redis = context.getBean(IdempotencyRedisProperties.class);
			assertThat(properties.isEnabled()).isFalse();
			assertThat(web.getKeyHeader()).isEqualTo("X-Idempotency-Key");
			assertThat(properties.getDefaultTtl()).isEqualTo(Duration.ofHours(12));
			assertThat(properties.getDefaultLease()).isEqualTo(Duration.ofSeconds(45));
			assertThat(properties.getDefaultWait()).isEqualTo(Duration.ofSeconds(2));
			assertThat(properties.getDefaultMode()).isEqualTo(IdempotencyMode.ATOMIC);
			assertThat(web.getMaxBodySize()).isEqualTo(DataSize.ofKilobytes(256));
			assertThat(web.getStoredHeaders()).containsExactly("X-Request-Trace", "ETag");
			assertThat(properties.getOperations()).containsOnlyKeys("create-payment", "POST /refunds/{id}");
			IdempotencyProperties.Operation payment = properties.getOperations().get("create-payment");
			assertThat(payment.getTtl()).isEqualTo(Duration.ofDays(7));
			assertThat(payment.getLease()).isEqualTo(Duration.ofMinutes(2));
			assertThat(payment.getWait()).isEqualTo(Duration.ofSeconds(5));
			assertThat(payment.getMode()).isEqualTo(IdempotencyMode.LEASED);
			assertThat(payment.isArchive()).isTrue();
			IdempotencyProperties.Operation refund = properties.getOperations().get("POST /refunds/{id}");
			assertThat(refund.getTtl()).isEqualTo(Duration.ofDays(3));
			assertThat(refund.getLease()).isNull();
			assertThat(refund.getWait()).isNull();
			assertThat(refund.getMode()).isNull();
			assertThat(refund.isArchive()).isFalse();
			assertThat(properties.getTenant().getHeader()).isEqualTo("X-Org");
			assertThat(properties.getTenant().getDefaultTenant()).isEqualTo("acme");
			assertThat(jdbc.getInitializeSchema()).isEqualTo(DatabaseInitializationMode.NEVER);
			assertThat(jdbc.getFlywayHistoryTable()).isEqualTo("starter_history");
			assertThat(purge.getCron()).isEqualTo("0 */5 * * * *");
			assertThat(purge.getBatchSize()).isEqualTo(100);
			assertThat(purge.getPause()).isEqualTo(Duration.ofSeconds(1));
			assertThat(purge.getStuckAfter()).isEqualTo(Duration.ofHours(2));
			assertThat(properties.getLimits().getNewKeys()).isEqualTo(100);
			assertThat(properties.getLimits().getInterval()).isEqualTo(Duration.ofSeconds(10));
			assertThat(properties.getLimits().getInFlight()).isEqualTo(20);

			assertThat(properties.getMetrics().getRecordsRefresh()).isEqualTo(Duration.ofSeconds(10));
			assertThat(properties.getDashboard().isEnabled()).isTrue();
			assertThat(properties.getClassification().getTransientStatuses()).containsExactlyInAnyOrder(409, 429);
			assertThat(properties.getClassification().getFinalExceptions())
				.containsExactly(IllegalArgumentException.class, NoSuchElementException.class);
			assertThat(properties.getClassification().getTransientExceptions())
				.containsExactly(IllegalStateException.class);
			assertThat(properties.getStore().getType()).isEqualTo(IdempotencyProperties.StoreType.REDIS);
			assertThat(redis.getKeyPrefix()).isEqualTo("orders-idempotency:");
			assertThat(redis.getWaitReplicas()).isEqualTo(1);
			assertThat(redis.getWaitTimeout()).isEqualTo(Duration.ofSeconds(2));
			assertThat(properties.getAlerts().getRepeatedFailures()).isEqualTo(5);
		});
	}

	@Test
	void everyPropertyBindsAwayFromItsDefault() {
		this.runner.withInitializer(IdempotencyPropertiesTests::loadEveryProperty).run((context) -> {
			int checked = 0;
			for (Map.Entry<Class<?>, String> properties : PROPERTIES.entrySet()) {
				BeanWrapper bound = new BeanWrapperImpl(context.getBean(properties.getKey()));
				BeanWrapper defaults = new BeanWrapperImpl(BeanUtils.instantiateClass(properties.getKey()));
				Set<String> names = new TreeSet<>();
				collectPropertyNames(properties.getValue(), properties.getKey(), names);
				names.remove("idempotency.operations");
				for (String name : names) {
					String path = beanPath(name.substring(properties.getValue().length() + 1));
					assertThat(bound.getPropertyValue(path)).as(name).isNotEqualTo(defaults.getPropertyValue(path));
					checked++;
				}
			}
			assertThat(checked).isGreaterThan(25);
			BeanWrapper operation = new BeanWrapperImpl(
					context.getBean(IdempotencyProperties.class).getOperations().get("create-payment"));
			BeanWrapper unset = new BeanWrapperImpl(new IdempotencyProperties.Operation());
			for (PropertyDescriptor descriptor : BeanUtils
				.getPropertyDescriptors(IdempotencyProperties.Operation.class)) {
				if (descriptor.getWriteMethod() != null) {
					assertThat(operation.getPropertyValue(descriptor.getName())).as(descriptor.getName())
						.isNotEqualTo(unset.getPropertyValue(descriptor.getName()));
				}
			}
		});
	}

	@Test
	void defaultsAreAsDocumented() {
		this.runner.run((context) -> {
			IdempotencyProperties properties = context.getBean(IdempotencyProperties.class);
			IdempotencyWebProperties web = context.getBean(IdempotencyWebProperties.class);
			IdempotencyJdbcProperties jdbc = context.getBean(IdempotencyJdbcProperties.class);
			IdempotencyPurgeProperties purge = context.getBean(IdempotencyPurgeProperties.class);
			IdempotencyRedisProperties redis = context.getBean(IdempotencyRedisProperties.class);
			assertThat(properties.isEnabled()).isTrue();
			assertThat(web.getKeyHeader()).isEqualTo("Idempotency-Key");
			assertThat(properties.getDefaultTtl()).isEqualTo(Duration.ofHours(24));
			assertThat(properties.getDefaultLease()).isEqualTo(Duration.ofSeconds(30));
			assertThat(properties.getDefaultWait()).isZero();
			assertThat(properties.getDefaultMode()).isEqualTo(IdempotencyMode.LEASED);
			assertThat(web.getMaxBodySize()).isEqualTo(DataSize.ofMegabytes(1));
			assertThat(web.getStoredHeaders()).isEmpty();
			assertThat(properties.getOperations()).isEmpty();
			assertThat(properties.getTenant().getHeader()).isEqualTo("X-Tenant-Id");
			assertThat(properties.getTenant().getDefaultTenant()).isEqualTo("default");
			assertThat(jdbc.getInitializeSchema()).isEqualTo(DatabaseInitializationMode.ALWAYS);
			assertThat(jdbc.getFlywayHistoryTable()).isEqualTo("idempotency_schema_history");
			assertThat(purge.getCron()).isEqualTo("0 * * * * *");
			assertThat(purge.getBatchSize()).isEqualTo(500);
			assertThat(purge.getPause()).isEqualTo(Duration.ofMillis(200));
			assertThat(purge.getStuckAfter()).isEqualTo(Duration.ofHours(1));
			assertThat(properties.getLimits().getNewKeys()).isZero();
			assertThat(properties.getLimits().getInterval()).isEqualTo(Duration.ofMinutes(1));
			assertThat(properties.getLimits().getInFlight()).isZero();

			assertThat(properties.getMetrics().getRecordsRefresh()).isEqualTo(Duration.ofSeconds(30));
			assertThat(properties.getDashboard().isEnabled()).isFalse();
			assertThat(properties.getClassification().getTransientStatuses()).containsExactlyInAnyOrder(408, 409, 425,
					429);
			assertThat(properties.getClassification().getFinalExceptions()).isEmpty();
			assertThat(properties.getClassification().getTransientExceptions()).isEmpty();
			assertThat(properties.getStore().getType()).isNull();
			assertThat(redis.getKeyPrefix()).isEqualTo("idempotency:");
			assertThat(redis.getWaitReplicas()).isZero();
			assertThat(redis.getWaitTimeout()).isEqualTo(Duration.ofMillis(500));
			assertThat(properties.getAlerts().getRepeatedFailures()).isEqualTo(3);
		});
	}

	@Test
	void boundSettingsReachTheOperationPoliciesAndTheClassifier() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class))
			.withInitializer(IdempotencyPropertiesTests::loadEveryProperty)
			.withPropertyValues("idempotency.enabled=true", "idempotency.jdbc.initialize-schema=always",
					"idempotency.store.type=jdbc")
			.run((context) -> {
				OperationPolicies policies = context.getBean(OperationPolicies.class);
				OperationPolicy payment = policies.policyFor("create-payment", null);
				assertThat(payment.mode()).isEqualTo(IdempotencyMode.LEASED);
				assertThat(payment.ttl()).isEqualTo(Duration.ofDays(7));
				assertThat(payment.lease()).isEqualTo(Duration.ofMinutes(2));
				assertThat(payment.maxWait()).isEqualTo(Duration.ofSeconds(5));
				assertThat(payment.archive()).isTrue();
				assertThat(policies.policyFor("POST /refunds/{id}", null))
					.isEqualTo(new OperationPolicy("POST /refunds/{id}", IdempotencyMode.ATOMIC, Duration.ofDays(3),
							Duration.ofSeconds(45), Duration.ofSeconds(2), false));
				OutcomeClassifier classifier = context.getBean(OutcomeClassifier.class);
				assertThat(classifier.classify(408, null)).isEqualTo(Disposition.STORE);
				assertThat(classifier.classify(409, null)).isEqualTo(Disposition.RELEASE);
				assertThat(classifier.classify(500, new IllegalArgumentException())).isEqualTo(Disposition.STORE);
				assertThat(classifier.classify(400, new IllegalStateException())).isEqualTo(Disposition.RELEASE);
				assertThat(classifier.classify(new NoSuchElementException())).isEqualTo(Disposition.STORE);
			});
	}

	@Test
	void everyPropertyHasMetadataWithADescription() throws IOException {
		Map<String, JsonNode> metadata = metadata();
		Set<String> names = new TreeSet<>();
		PROPERTIES.forEach((type, prefix) -> collectPropertyNames(prefix, type, names));
		assertThat(metadata.keySet()).containsAll(names);
		names.forEach((name) -> assertThat(metadata.get(name).path("description").asString()).as(name).isNotBlank());
	}

	@Test
	void defaultsInTheMetadataAreTheDefaultsOfTheProperties() throws IOException {
		Map<String, Object> defaults = new HashMap<>();
		metadata().forEach((name, property) -> {
			JsonNode value = property.get("defaultValue");
			if (value != null) {
				defaults.put(name, value.isString() ? value.asString() : value.toString());
			}
		});
		assertThat(defaults).contains(entry("idempotency.default-ttl", "24h"),
				entry("idempotency.default-lease", "30s"));
		PROPERTIES.forEach((type, prefix) -> {
			Object bound = new Binder(new MapConfigurationPropertySource(defaults)).bind(prefix, Bindable.of(type))
				.map(Object.class::cast)
				.orElseGet(() -> BeanUtils.instantiateClass(type));
			assertThat(bound).as(type.getSimpleName())
				.usingRecursiveComparison()
				.isEqualTo(BeanUtils.instantiateClass(type));
		});
	}

	private static void loadEveryProperty(ConfigurableApplicationContext context) {
		try {
			new PropertiesPropertySourceLoader()
				.load("every-property",
					new ClassPathResource("every-property.properties", IdempotencyPropertiesTests.class))
				.forEach(context.getEnvironment().getPropertySources()::addLast);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Return the metadata of every {@code idempotency.*} property, from the jar of each module that
	 * declares some.
	 */
	private static Map<String, JsonNode> metadata() throws IOException {
		Map<String, JsonNode> properties = new HashMap<>();
		for (URL resource : Collections.list(IdempotencyPropertiesTests.class.getClassLoader().getResources(METADATA))) {
			try (InputStream input = resource.openStream()) {
				JsonMapper.builder().build().readTree(input).path("properties").forEach((property) -> {
					String name = property.path("name").asString();
					if (name.startsWith("idempotency.")) {
						properties.put(name, property);
					}
				});
			}
		}
		return properties;
	}

	/**
	 * Collect the name of every bean property, descending into the nested groups declared in
	 * {@link IdempotencyProperties}.
	 */
	private static void collectPropertyNames(String prefix, Class<?> type, Set<String> names) {
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			if (descriptor.getReadMethod() == null || descriptor.getName().equals("class")) {
				continue;
			}
			String name = prefix + "." + kebabCase(descriptor.getName());
			Class<?> propertyType = descriptor.getPropertyType();
			boolean group = propertyType.getDeclaringClass() == type
					&& descriptor.getWriteMethod() == null;
			if (group) {
				collectPropertyNames(name, propertyType, names);
			}
			else {
				names.add(name);
			}
		}
	}

	private static String beanPath(String name) {
		StringBuilder path = new StringBuilder();
		boolean upper = false;
		for (char c : name.toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				path.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return path.toString();
	}

	private static String kebabCase(String name) {
		return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties({ IdempotencyProperties.class, IdempotencyWebProperties.class,
			IdempotencyJdbcProperties.class, IdempotencyPurgeProperties.class, IdempotencyRedisProperties.class })
	static class PropertiesConfiguration {

	}

}

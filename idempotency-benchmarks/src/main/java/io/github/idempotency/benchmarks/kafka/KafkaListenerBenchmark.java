package io.github.idempotency.benchmarks.kafka;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * Measures records per second through one {@code @KafkaListener} that writes one row per record to
 * PostgreSQL: unguarded, and guarded by {@code @Idempotent} in LEASED and in ATOMIC mode. The
 * scenarios run interleaved for a number of rounds on one embedded KRaft broker and one database,
 * each round on new records with new keys, so that the medians compare like with like.
 *
 * <p>Run it with {@code bench/kafka.sh}; arguments are {@code --name=value}: {@code records}
 * (20000 a round and scenario), {@code rounds} (5), {@code partitions} (4, also the consumers of
 * each listener) and {@code warm-up-records} (5000, one round not counted).
 */
public final class KafkaListenerBenchmark {

	static final List<String> SCENARIOS = List.of(BenchmarkListeners.UNGUARDED, BenchmarkListeners.LEASED,
			BenchmarkListeners.ATOMIC);

	private KafkaListenerBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = options(args);
		int records = Integer.parseInt(options.getOrDefault("records", "20000"));
		int rounds = Integer.parseInt(options.getOrDefault("rounds", "5"));
		int partitions = Integer.parseInt(options.getOrDefault("partitions", "4"));
		int warmUp = Integer.parseInt(options.getOrDefault("warm-up-records", "5000"));
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, partitions,
				SCENARIOS.stream().map(BenchmarkListeners::topic).toArray(String[]::new));
		broker.brokerProperties(Map.of("offsets.topic.num.partitions", "1"));
		broker.afterPropertiesSet();
		PostgresTestDatabase database = PostgresTestDatabase.create("bench_kafka");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(BenchmarkApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.datasource.url=" + database.url(), "spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password(),
					"spring.datasource.hikari.maximum-pool-size=" + (2 * partitions + 2),
					"spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.listener.concurrency=" + partitions, "spring.kafka.listener.poll-timeout=100ms",
					"spring.main.banner-mode=off", "logging.level.root=WARN")
			.run();
				KafkaProducer<String, String> producer = producer(broker.getBrokersAsString())) {
			BenchmarkListeners listeners = context.getBean(BenchmarkListeners.class);
			KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
			Map<String, List<Double>> rates = new LinkedHashMap<>();
			SCENARIOS.forEach((scenario) -> rates.put(scenario, new ArrayList<>()));
			for (int round = 0; round <= rounds; round++) {
				boolean counted = round > 0;
				int count = counted ? records : warmUp;
				// Rotate the order, so that no scenario always runs first after a pause.
				for (int i = 0; i < SCENARIOS.size(); i++) {
					String scenario = SCENARIOS.get((round + i) % SCENARIOS.size());
					double rate = run(scenario, round, count, producer, listeners, registry);
					if (counted) {
						rates.get(scenario).add(rate);
					}
					System.out.printf(Locale.ROOT, "round %d%s %-9s %8.0f records/s%n", round,
							counted ? "" : " (warm-up)", scenario, rate);
				}
			}
			report(rates, records, rounds, partitions, listeners);
		}
		finally {
			broker.destroy();
		}
	}

	private static double run(String scenario, int round, int count, KafkaProducer<String, String> producer,
			BenchmarkListeners listeners, KafkaListenerEndpointRegistry registry) throws Exception {
		for (int i = 0; i < count; i++) {
			String key = "bench:" + scenario + ":" + round + ":" + i;
			ProducerRecord<String, String> record = new ProducerRecord<>(BenchmarkListeners.topic(scenario), key,
					"{\"orderId\":\"" + key + "\",\"items\":2}");
			record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
			producer.send(record);
		}
		producer.flush();
		BenchmarkListeners.Meter meter = listeners.meter(scenario, count);
		MessageListenerContainer container = registry.getListenerContainer(scenario);
		container.start();
		try {
			if (!meter.await(TimeUnit.MINUTES.toNanos(10))) {
				throw new IllegalStateException(scenario + ": " + meter.count() + " of " + count + " records in 10 min");
			}
		}
		finally {
			container.stop();
		}
		return meter.recordsPerSecond();
	}

	private static void report(Map<String, List<Double>> rates, int records, int rounds, int partitions,
			BenchmarkListeners listeners) {
		double baseline = median(rates.get(BenchmarkListeners.UNGUARDED));
		System.out.printf(Locale.ROOT, "%nKafka listener, %d records a round, %d rounds, %d partitions and consumers; "
				+ "medians:%n%n| listener | records/s | ratio to unguarded |%n|---|---|---|%n", records, rounds, partitions);
		rates.forEach((scenario, values) -> System.out.printf(Locale.ROOT, "| %s | %.0f | %.2f |%n", scenario,
				median(values), median(values) / baseline));
		System.out.printf(Locale.ROOT, "%neffects: %s (one per record and scenario)%n", listeners.effects());
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

	private static KafkaProducer<String, String> producer(String brokers) {
		Properties properties = new Properties();
		properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
		properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
		return new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
	}

	private static Map<String, String> options(String[] args) {
		Map<String, String> options = new LinkedHashMap<>();
		for (String arg : args) {
			if (!arg.startsWith("--") || !arg.contains("=")) {
				throw new IllegalArgumentException("Expected --name=value, got " + arg);
			}
			options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
		}
		return options;
	}

}

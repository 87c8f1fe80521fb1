package io.github.idempotency.docs.snippets;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the documentation's snippets make up, on an embedded H2 database: its classes
 * are the code the snippets are held to.
 */
// Spring Modulith's events core is here for the outbox guide's externalizer to compile; without a
// registry of events (no JDBC module) its auto-configuration cannot start.
@SpringBootApplication(excludeName = { "org.springframework.modulith.events.config.EventPublicationAutoConfiguration",
		"org.springframework.modulith.events.config.EventExternalizationAutoConfiguration" })
public class DocsApplication {

}

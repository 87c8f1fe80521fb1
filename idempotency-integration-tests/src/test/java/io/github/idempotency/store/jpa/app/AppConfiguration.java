package io.github.idempotency.store.jpa.app;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/**
 * An application whose entity scan covers its own package only, so that the starter's entity is
 * in the persistence unit only if the starter registers it.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class AppConfiguration {

}

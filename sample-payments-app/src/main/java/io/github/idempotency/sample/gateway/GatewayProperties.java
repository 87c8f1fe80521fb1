package io.github.idempotency.sample.gateway;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the fake payment gateway.
 *
 * @param latency how long every gateway call takes before anything is charged
 * @param poolSize connections of the gateway's own pool: as an external system it never shares the
 * application's connections
 */
@ConfigurationProperties("sample.gateway")
public record GatewayProperties(@DefaultValue("0s") Duration latency, @DefaultValue("8") int poolSize) {

}

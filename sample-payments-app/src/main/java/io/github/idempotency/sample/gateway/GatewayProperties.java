package io.github.idempotency.sample.gateway;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration properties of the fake payment gateway.
 *
 * @param latency how long every gateway call takes before the charge is recorded
 */
@ConfigurationProperties("sample.gateway")
public record GatewayProperties(@DefaultValue("0s") Duration latency) {

}

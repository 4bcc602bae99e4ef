/**
 * The Framewire engine: graphs of calculators over timestamped packets.
 */
package dev.framewire.core;

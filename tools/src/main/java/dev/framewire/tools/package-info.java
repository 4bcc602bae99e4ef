/**
 * The {@code framewire} command line.
 */
package dev.framewire.tools;

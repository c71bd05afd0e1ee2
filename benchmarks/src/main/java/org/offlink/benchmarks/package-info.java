/**
 * JMH micro-benchmarks of offlink's hot paths (section headers of large objects, archive listing,
 * LTO payload decompression, PTX map parsing, wrapper object writing). Inputs are generated in each
 * benchmark's set-up, deterministically; nothing here ships in target/offlink.
 */
package org.offlink.benchmarks;

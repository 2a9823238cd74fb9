#!/usr/bin/python3
"""scikit-learn's RBFSampler.transform throughput, the peer of `kfm map --threads N`
(docs/benchmarks.md, "scikit-learn and threads").

N rows of d = 784 standard normal values mapped to D = 8192 features (gamma = 1/d, i.e. sigma^2 = d/2 as
the kfm benchmark's map); the transform is a dense GEMM in OpenBLAS plus cos. Each thread count runs in
its own process with OPENBLAS_NUM_THREADS (and OMP_NUM_THREADS) set before NumPy loads. Prints the median
wall time of --repeats transforms and rows per second.

usage: OPENBLAS_CORETYPE=Haswell scripts/research/sklearn_rbf_throughput.py [--rows 10000] [--threads 1,2]
Needs scripts/ci/install-deps.sh --with-python (NumPy, scikit-learn, libopenblas0-pthread).
"""
import argparse
import os
import subprocess
import sys


def measure(rows, dim, features, repeats):
    import time

    import numpy as np
    from sklearn.kernel_approximation import RBFSampler

    x = np.random.default_rng(11).standard_normal((rows, dim), dtype=np.float32)
    sampler = RBFSampler(gamma=1.0 / dim, n_components=features, random_state=7).fit(x[:1])
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        phi = sampler.transform(x)
        times.append(time.perf_counter() - start)
    times.sort()
    median = times[len(times) // 2]
    print(f"threads {os.environ['OPENBLAS_NUM_THREADS']}: median {median * 1e3:.1f} ms, "
          f"{rows / median:.0f} rows/s, dtype {phi.dtype}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10000)
    parser.add_argument("--dim", type=int, default=784)
    parser.add_argument("--features", type=int, default=8192)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        measure(args.rows, args.dim, args.features, args.repeats)
        return
    for t in args.threads.split(","):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=t, OMP_NUM_THREADS=t)
        subprocess.run([sys.executable, __file__, "--child", "--rows", str(args.rows), "--dim", str(args.dim),
                        "--features", str(args.features), "--repeats", str(args.repeats)], env=env, check=True)


if __name__ == "__main__":
    main()

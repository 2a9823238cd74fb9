#!/usr/bin/python3
"""Accuracy of the int8 head (kfm fit --head-dtype int8) against the float32 head, the figures of
docs/embedding.md ("Flash for the model: the int8 head").

For USPS (DATA_DIR/usps: the data directory given as the argument or by KFM_DATA_DIR; binary as stored:
one score) with an SSF Gaussian map at D = 4096 and scikit-learn's digits (10 classes, a stratified
70/30 split, seed 0) at D = 1024, both with --sigma scale: kfm build, kfm fit with each head dtype, kfm
predict on the test rows. Prints per data set the accuracy of each head, the change against f32 in
percentage points, the share of test rows whose label equals the f32 model's, and the head's bytes. The
f16 row is the f32 weights rounded to binary16 and applied in double (no kfm format stores f16; it was
measured to choose between int8 and f16).

usage: PYTHONPATH=build/native/python /usr/bin/python3 scripts/research/head_dtype_accuracy.py build/native/kfm [DATA_DIR]
"""
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split


def run(*args):
    subprocess.run([str(a) for a in args], check=True, stdout=subprocess.DEVNULL)


def sections(path):
    """{tag: (dtype, payload bytes)} of a .kfm file (docs/format.md: header, 40-byte table entries)."""
    data = open(path, "rb").read()
    count = struct.unpack_from("<I", data, 32)[0]
    out = {}
    for i in range(count):
        tag, dtype, offset, size, _count, _crc, _reserved = struct.unpack_from("<IIQQQII", data, 64 + 40 * i)
        out[struct.pack("<I", tag).decode()] = (dtype, data[offset:offset + size])
    return out


def head_bytes(path):
    s = sections(path)
    return sum(len(s[tag][1]) for tag in ("HEAD", "HDI8", "HSCL") if tag in s)


def f16_labels(model_path, map_path, x_test, work, kfm_tool):
    """Labels of the f32 model's head rounded to binary16, applied in double to the map's features."""
    s = sections(model_path)
    bias = np.frombuffer(s["BIAS"][1], np.float32).astype(np.float64)
    weights = np.frombuffer(s["HEAD"][1], np.float32).reshape(len(bias), -1)
    labels = np.frombuffer(s["LABL"][1], np.int32)
    run(kfm_tool, "map", map_path, "--in", x_test, "--out", os.path.join(work, "phi.npy"))
    phi = np.load(os.path.join(work, "phi.npy")).astype(np.float64)
    scores = phi @ weights.astype(np.float16).astype(np.float64).T + bias
    return labels[(scores[:, 0] > 0).astype(int)] if len(bias) == 1 else labels[scores.argmax(axis=1)]


def measure(name, x_train, y_train, x_test, y_test, features, work, kfm_tool):
    map_path = os.path.join(work, f"{name}-map.kfm")
    run(kfm_tool, "build", "--method", "ssf", "--kernel", "gaussian", "--sigma", "scale", "--data", x_train,
        "--input-dim", np.load(x_train).shape[1], "--features", features, "-o", map_path)
    truth = np.load(y_test)
    predicted, sizes = {}, {}
    for dtype in ("f32", "int8"):
        model = os.path.join(work, f"{name}-{dtype}.kfm")
        run(kfm_tool, "fit", map_path, "--x", x_train, "--y", y_train, "--task", "classification", "--quiet",
            "--head-dtype", dtype, "-o", model)
        run(kfm_tool, "predict", model, "--in", x_test, "--out", os.path.join(work, "p.npy"))
        predicted[dtype] = np.load(os.path.join(work, "p.npy"))
        sizes[dtype] = head_bytes(model)
    predicted["f16"] = f16_labels(os.path.join(work, f"{name}-f32.kfm"), map_path, x_test, work, kfm_tool)
    sizes["f16"] = sizes["f32"] // 2
    base = (predicted["f32"] == truth).mean() * 100
    print(f"{name}: D = {features}, {len(truth)} test rows")
    for dtype in ("f32", "f16", "int8"):
        accuracy = (predicted[dtype] == truth).mean() * 100
        same = (predicted[dtype] == predicted["f32"]).mean() * 100
        print(f"  {dtype:5s} accuracy {accuracy:7.3f} %  change {accuracy - base:+.3f} pp  "
              f"labels equal to f32 {same:7.3f} %  head {sizes[dtype]:6d} B")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    kfm_tool = sys.argv[1]
    data_dir = sys.argv[2] if len(sys.argv) == 3 else os.environ.get("KFM_DATA_DIR", "")
    with tempfile.TemporaryDirectory() as work:
        usps = os.path.join(data_dir, "usps")
        if os.path.isdir(usps):
            measure("usps", *(os.path.join(usps, f + ".npy") for f in ("X_train", "y_train", "X_test", "y_test")),
                    4096, work, kfm_tool)
        else:
            print(f"usps: skipped, no {usps}")
        X, y = load_digits(return_X_y=True)
        parts = train_test_split(X.astype(np.float32), y.astype(np.int32), test_size=0.3, random_state=0, stratify=y)
        paths = [os.path.join(work, f"digits-{n}.npy") for n in ("X_train", "X_test", "y_train", "y_test")]
        for path, part in zip(paths, parts):
            np.save(path, part)
        measure("digits", paths[0], paths[2], paths[1], paths[3], 1024, work, kfm_tool)


if __name__ == "__main__":
    main()

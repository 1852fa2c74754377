#!/bin/sh
# cudawiz matrix update with NVIDIA's redistrib manifests: merged into the
# data in use, found through a directory listing, validated field by field.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/httpd.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"
src=$TESTS_SRCDIR/../data/matrix.json
[ -f "$src" ] || skip_all "no data/matrix.json"

mkdir -p "$HD_DIR/cuda" "$HD_DIR/cudnn" "$HD_DIR/bad" "$HD_DIR/empty"
jq '.date = "2099-01-01"' "$src" > "$HD_DIR/matrix.json"
# compat-facts.md §8b, trimmed to what is read (the rest is ignored).
cat > "$HD_DIR/cuda/redistrib_12.4.1.json" <<'EOF'
{
    "release_date": "2024-04-03",
    "release_label": "12.4.1",
    "release_product": "cuda",
    "cuda_cudart": {
        "name": "CUDA Runtime (cudart)",
        "license": "CUDA Toolkit",
        "license_path": "cuda_cudart/LICENSE.txt",
        "version": "12.4.127",
        "linux-x86_64": {
            "relative_path": "cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz",
            "sha256": "0483bff9a36e7a44465db3cd42874f6f70f019297dcf803fbefcbf58d7448c8f",
            "md5": "5c452d73cb03a42c1711f8655fa2fb8a",
            "size": "1099680"
        }
    },
    "nvidia_driver": {
        "name": "NVIDIA Linux Driver",
        "license": "NVIDIA Driver",
        "license_path": "nvidia_driver/LICENSE.txt",
        "version": "550.54.15",
        "linux-x86_64": {
            "relative_path": "nvidia_driver/linux-x86_64/nvidia_driver-linux-x86_64-550.54.15-archive.tar.xz",
            "sha256": "e1416ebc1e7b4a14d393ca584e3f9c5e22f9750f4ba502a8ba2c5c5ad943bbb5",
            "md5": "4c757f62a0aa0d7025bd290f0f62b1f2",
            "size": "352810260"
        }
    }
}
EOF
# A release newer than the embedded data, in the same shape.
jq '.release_label = "13.9.0" | .release_date = "2099-01-01" |
    .cuda_cudart.version = "13.9.21" | .nvidia_driver.version = "620.10.01"' \
    "$HD_DIR/cuda/redistrib_12.4.1.json" > "$HD_DIR/cuda/redistrib_13.9.0.json"
# compat-facts.md §8c (cuDNN 9.10.0), trimmed, and a newer one.
cat > "$HD_DIR/cudnn/redistrib_9.10.0.json" <<'EOF'
{
    "release_date": "2025-05-07",
    "release_label": "9.10.0",
    "release_product": "cudnn",
    "cudnn": {
        "name": "NVIDIA CUDA Deep Neural Network library",
        "license": "cudnn",
        "license_path": "cudnn/LICENSE.txt",
        "version": "9.10.0.56",
        "linux-x86_64": {
            "cuda11": {
                "relative_path": "cudnn/linux-x86_64/cudnn-linux-x86_64-9.10.0.56_cuda11-archive.tar.xz",
                "sha256": "a0579702b538378243795328c186bb37199618494b498f1b74a5b61304861733",
                "md5": "888d44ba1221dd688fa6f1e15ea1c186",
                "size": "524914444"
            },
            "cuda12": {
                "relative_path": "cudnn/linux-x86_64/cudnn-linux-x86_64-9.10.0.56_cuda12-archive.tar.xz",
                "sha256": "cc0ad9eaaf6ef6569b20250111f9df0569816c17076c58aad8aea1661e2fc781",
                "md5": "a854357768cad19d3c18dee59ee770e8",
                "size": "1003184568"
            }
        },
        "cuda_variant": [
            "11",
            "12"
        ]
    }
}
EOF
jq '.release_label = "9.90.0" | .cudnn.version = "9.90.0.1" |
    .cudnn.cuda_variant = ["12", "13"]' \
    "$HD_DIR/cudnn/redistrib_9.10.0.json" > "$HD_DIR/cudnn/redistrib_9.90.0.json"
jq '.release_label = "13.9.9" | .cuda_cudart.version = "13.9.30" |
    .nvidia_driver.version = "620.1; rm -rf ~"' \
    "$HD_DIR/cuda/redistrib_13.9.0.json" > "$HD_DIR/bad/redistrib_13.9.9.json"
hd_start

newest() {	# newest cuda|cudnn in the matrix in use
	hd_cudawiz -- matrix show --json
	jq -r ".newest.$1" "$HD_OUT"
}

embedded_cuda=$(newest cuda)

# A single CUDA manifest, merged into the embedded data.
hd_cudawiz -- matrix update --url "$HD_URL/cuda/redistrib_13.9.0.json"
is "$HD_RC" 0 "a CUDA manifest: exit 0"
like "$(cat "$HD_OUT")" 'CUDA 13\.9\.0, driver 620\.10\.01' "it says what the manifest holds"
is "$(jq -r '.cuda_releases[] | select(.version == "13.9.0") | .linux_driver' "$HD_MATRIX")" \
    620.10.01 "the cache has the release and its driver"
is "$(jq -r .date "$HD_MATRIX")" "$(jq -r .date "$src")" "the data keeps its date"
hd_cudawiz -- matrix show --json
is "$(jq -r .source "$HD_OUT")" cache "the merged cache is used"
is "$(jq -r .newest.cuda "$HD_OUT")" 13.9.0 "newest CUDA is the manifest's"
is "$(jq -r .counts.cuda_releases "$HD_OUT")" \
    "$(($(jq '.cuda_releases | length' "$src") + 1))" "one release more"
unlike "$embedded_cuda" '^13\.9\.0$' "the embedded data did not know it"

# Directory listings find the newest manifest of each product.
hd_cudawiz -- matrix update --url "$HD_URL/cuda/" --url "$HD_URL/cudnn/"
is "$HD_RC" 0 "listings: exit 0"
like "$(cat "$HD_LOG")" 'GET /cudnn/redistrib_9\.90\.0\.json' "the cuDNN listing led to its newest manifest"
unlike "$(cat "$HD_LOG")" 'GET /cudnn/redistrib_9\.10\.0\.json' "and not to an older one"
is "$(newest cudnn)" 9.90.0 "newest cuDNN is the manifest's"
hd_cudawiz -- matrix show
like "$(cat "$HD_OUT")" 'Newest cuDNN: +9\.90\.0' "show (text) says so too"
hd_snapshot
hd_cudawiz -- matrix update --url "$HD_URL/cuda/" --url "$HD_URL/cudnn/"
is "$HD_RC" 0 "listings again: exit 0"
like "$(cat "$HD_OUT")" 'up to date' "listings again: 304 for both manifests, up to date"
hd_unchanged "listings again: the cache is unchanged"

# A manifest with a bad field changes nothing.
hd_snapshot
hd_cudawiz -- matrix update --url "$HD_URL/bad/redistrib_13.9.9.json"
is "$HD_RC" 1 "a bad manifest: exit 1"
like "$(cat "$HD_ERR")" 'nvidia_driver\.version: "620\.1; rm -rf ~" is not a driver version' \
    "a bad manifest: names the field and shows the value"
is "$(wc -l < "$HD_ERR" | tr -d ' ')" 1 "a bad manifest: one line"
hd_unchanged "a bad manifest: the cache is unchanged"
hd_snapshot
hd_cudawiz -- matrix update --url "$HD_URL/cuda/redistrib_13.9.0.json" \
    --url "$HD_URL/bad/"
is "$HD_RC" 1 "a listing leading to a bad manifest: exit 1"
hd_unchanged "a listing leading to a bad manifest: the cache is unchanged"
hd_snapshot
hd_cudawiz -- matrix update --url "$HD_URL/empty/"
is "$HD_RC" 1 "a listing without manifests: exit 1"
like "$(cat "$HD_ERR")" 'redistrib_\*\.json' "a listing without manifests: says what was missing"
hd_unchanged "a listing without manifests: the cache is unchanged"

# The real 12.4.1 manifest agrees with the embedded data.
hd_cudawiz -- matrix update --url "$HD_URL/cuda/redistrib_12.4.1.json"
is "$HD_RC" 0 "the 12.4.1 manifest: exit 0"
is "$(jq -r '.cuda_releases[] | select(.version == "12.4.1") | .linux_driver' "$HD_MATRIX")" \
    550.54.15 "12.4.1 needs driver 550.54.15"

# A cudawiz matrix and a manifest together: the matrix replaces the data,
# the manifest is merged into it, even though it answers 304 (it has to
# be fetched whole again for the new data).
hd_cudawiz -- matrix update --url "$HD_URL/matrix.json" \
    --url "$HD_URL/cuda/redistrib_13.9.0.json"
is "$HD_RC" 0 "a matrix and a manifest: exit 0"
is "$(jq -r .date "$HD_MATRIX")" 2099-01-01 "the matrix replaced the data"
is "$(jq -r '[.cuda_releases[] | select(.version == "13.9.0")] | length' "$HD_MATRIX")" 1 \
    "and the manifest was merged into it"

# Two matrices are one too many.
hd_snapshot
hd_cudawiz -- matrix update --url "$HD_URL/matrix.json" --url "$HD_URL/chain/0/matrix.json"
is "$HD_RC" 1 "two matrices: exit 1"
like "$(cat "$HD_ERR")" 'second cudawiz matrix' "two matrices: says so"
hd_unchanged "two matrices: the cache is unchanged"

done_testing

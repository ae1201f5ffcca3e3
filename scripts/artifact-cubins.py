#!/usr/bin/env python3
"""artifact-cubins.py ARTIFACT.so OUTDIR [NAME_SUBSTRING]

Cuts the CUDA ELF images (cubins) that gpu-module-to-binary embedded in a GPU
artifact's shared library out of it, one OUTDIR/<kernel>.cubin per image,
named after the first __moe_entry_* kernel it defines; with NAME_SUBSTRING
only the images with a kernel whose name contains it. Why: compute-sanitizer
reports offsets into a kernel (e.g. "__moe_entry_2_15_grouped_weight_grad
+0x34d0"), and `cuobjdump -sass` / `nvdisasm` (on the GPU machine) need the
cubin to show the instructions there. Plain Python: reads 64-bit
little-endian ELF only.
"""
import os
import struct
import sys

EM_CUDA = 190
SHT_SYMTAB = 2


SHT_NOBITS = 8


def image_size(data, at):
    """The byte size of the ELF image at `at`: the end of whatever of it
    lies furthest, its section headers, its program headers (ptxas puts
    them after the section headers) or a section's contents."""
    phoff, shoff = struct.unpack_from("<QQ", data, at + 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, at + 54)
    end = max(shoff + shentsize * shnum, phoff + phentsize * phnum)
    for i in range(shnum):
        kind, _, _, offset, size = struct.unpack_from("<IIQQQQ", data, at + shoff + i * shentsize)[1:6]
        if kind != SHT_NOBITS:
            end = max(end, offset + size)
    return end


def kernel_names(image):
    """The __moe_entry_* symbols an ELF image defines, in symbol-table order."""
    shoff = struct.unpack_from("<Q", image, 40)[0]
    shentsize, shnum = struct.unpack_from("<HH", image, 58)
    sections = [struct.unpack_from("<IIQQQQIIQQ", image, shoff + i * shentsize) for i in range(shnum)]
    names = []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != SHT_SYMTAB or entsize == 0:
            continue
        strtab = sections[link]
        strings = image[strtab[4]:strtab[4] + strtab[5]]
        for k in range(size // entsize):
            name_at = struct.unpack_from("<I", image, offset + k * entsize)[0]
            name = strings[name_at:strings.index(b"\0", name_at)].decode("ascii", "replace")
            if name.startswith("__moe_entry_") and name not in names:
                names.append(name)
    return names


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[0])
    library, outdir = sys.argv[1], sys.argv[2]
    wanted = sys.argv[3] if len(sys.argv) == 4 else ""
    with open(library, "rb") as f:
        data = f.read()
    os.makedirs(outdir, exist_ok=True)
    written = 0
    at = data.find(b"\x7fELF", 1)  # 0 is the library itself
    while at >= 0:
        is_cubin = (len(data) >= at + 64 and data[at + 4] == 2 and data[at + 5] == 1 and
                    struct.unpack_from("<H", data, at + 18)[0] == EM_CUDA)
        if is_cubin:
            size = image_size(data, at)
            image = data[at:at + size]
            names = kernel_names(image)
            if names and (not wanted or any(wanted in n for n in names)):
                path = os.path.join(outdir, names[0] + ".cubin")
                with open(path, "wb") as out:
                    out.write(image)
                print(f"{path}: {size} bytes, kernels {', '.join(names)}")
                written += 1
            at = data.find(b"\x7fELF", at + size)
        else:
            at = data.find(b"\x7fELF", at + 4)
    if written == 0:
        sys.exit(f"artifact-cubins.py: no cubin{' with a kernel named *' + wanted + '*' if wanted else ''} in {library}")


if __name__ == "__main__":
    main()

fn main() {
    println!("protocompat: under construction");
}

//! `shogi-lab-usi`: the USI mate engine, for GUIs that start an engine by path with
//! no arguments (ShogiGUI, 将棋所, ShogiHome, cshogi). The same engine as `shogi-lab usi`.

fn main() {
    if let Some(arg) = std::env::args().nth(1) {
        if arg == "--version" || arg == "-V" {
            println!("shogi-lab-usi {}", env!("CARGO_PKG_VERSION"));
            return;
        }
        eprintln!("shogi-lab-usi: takes no arguments (a USI engine: start it and send `usi`)");
        std::process::exit(2);
    }
    match shogi_lab::tsume::usi::run_usi(std::io::stdin(), std::io::stdout()) {
        Ok(()) => std::process::exit(0),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("shogi-lab-usi: cannot write output: {e}");
            std::process::exit(3);
        }
    }
}
